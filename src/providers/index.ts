import type { Knex } from 'knex';
import type { Account } from '../context';
import type { Clock } from '../time';
import { SandboxProvider } from './sandbox/provider';
import type { PaymentProvider } from './types';

export type { PaymentProvider } from './types';

/** Picks the provider of an account. Accounts without provider credentials use the sandbox. */
export interface ProviderRegistry {
  forAccount(account: Pick<Account, 'id'>): Promise<PaymentProvider>;
}

export function createProviderRegistry(deps: { db: Knex; clock: Clock; publicUrl: string }): ProviderRegistry {
  return {
    forAccount: async (account) => new SandboxProvider(deps.db, deps.clock, account.id, deps.publicUrl),
  };
}

import type { AppContext } from '../../context';
import { adapterOfAccount } from '../../providers';
import { accountsRepository } from '../accounts/repository';

/**
 * The name of the account's provider as the merchant knows it (its display name), for texts such as the store's
 * order notes "<Provider> payment tr_…" (payments carry no provider of their own: an account's payments
 * go through its provider).
 */
export async function providerDisplayName(ctx: AppContext, accountId: string): Promise<string> {
  try {
    return adapterOfAccount(await accountsRepository.providerSettings(ctx.db, accountId), ctx.config)?.displayName ?? 'Provider';
  } catch {
    return 'Provider';
  }
}

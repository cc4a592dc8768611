import type { Knex } from 'knex';
import { readRow } from '../db/hotReads';

/**
 * The two columns of an account that belong to its outgoing events: the secret they are signed with
 * (encrypted) and the account-wide endpoint. The outbox sits below the modules, so it reads them here
 * rather than through the accounts module.
 */
const accounts = (db: Knex) => db('accounts');

export const accountEventSettingsRepository = {
  /** A hot read outside a transaction (db/hotReads): every event sent is signed with it. */
  webhookSecretSealed: async (db: Knex, accountId: string): Promise<string | null> =>
    (
      await readRow<{ webhook_secret_encrypted: string | null }>(
        db,
        'select `webhook_secret_encrypted` from `accounts` where `id` = ? limit 1',
        [accountId],
      )
    )?.webhook_secret_encrypted ?? null,

  /** Stores the sealed secret unless one is there already: of two first uses, the first one's stays. */
  setWebhookSecretIfNone: (db: Knex, accountId: string, sealed: string) =>
    accounts(db).where({ id: accountId }).whereNull('webhook_secret_encrypted').update({ webhook_secret_encrypted: sealed }),

  eventsUrl: async (db: Knex, accountId: string): Promise<string | null> =>
    (await accounts(db).where({ id: accountId }).first<{ events_url: string | null } | undefined>('events_url'))?.events_url ?? null,
};

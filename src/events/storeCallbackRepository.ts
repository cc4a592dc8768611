import type { Knex } from 'knex';

/**
 * What the outbox needs to call the account's store plugin: the callback address the plugin gave
 * when it connected the store, and who mails the customer about subscription changes. Read here, as
 * accountSettingsRepository does, because the outbox sits below the modules.
 */
export const storeCallbackRepository = {
  /** The connected store's callback address, or null (no store, disconnected, or connected without the plugin). */
  callbackUrl: async (db: Knex, accountId: string): Promise<string | null> =>
    (
      await db('shops')
        .where({ account_id: accountId, status: 'connected' })
        .first<{ callback_url: string | null } | undefined>('callback_url')
    )?.callback_url ?? null,

  portalMails: async (db: Knex, accountId: string): Promise<string | null> =>
    (await db('accounts').where({ id: accountId }).first<{ portal_mails: string | null } | undefined>('portal_mails'))?.portal_mails ??
    null,
};

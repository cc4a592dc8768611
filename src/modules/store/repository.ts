import type { Knex } from 'knex';

export interface ShopRow {
  id: string;
  account_id: string;
  /** The store platform's name in the registry (src/integrations). */
  platform: string;
  url: string;
  consumer_key: string;
  consumer_secret_encrypted: string;
  webhook_secret_encrypted: string;
  webhook_ids: string | null; // JSON number[]
  /** pending: being connected (the store's pings are awaited); not_reachable: the pings did not reach us, webhooks_error says why. */
  webhooks_state: 'pending' | 'registered' | 'not_reachable' | 'failed';
  webhooks_error: string | null;
  /** When the store's ping last reached us. */
  webhooks_pinged_at: string | null;
  webhooks_status: string | null; // JSON StoreWebhookStatus[]: as the store reported them at webhooks_checked_at
  webhooks_checked_at: string | null;
  status: 'connected' | 'disconnected';
  products_cursor: string | null;
  orders_cursor: string | null;
  connected_at: string | null;
  /** The plugin's signed callback for subscription events (migration 043); null: connected without the plugin. */
  callback_url: string | null;
  created_at: string;
  updated_at: string;
}

const table = (db: Knex) => db<ShopRow>('shops');

export const shopsRepository = {
  ofAccount: (db: Knex, accountId: string) => table(db).where({ account_id: accountId }).first(),

  /** One store per account: connecting again replaces the connection. */
  save: async (db: Knex, row: ShopRow): Promise<void> => {
    const { id: _id, created_at: _created, ...changes } = row;
    const updated = await table(db).where({ account_id: row.account_id }).update(changes);
    if (!updated) await table(db).insert(row);
  },

  update: (db: Knex, accountId: string, changes: Partial<ShopRow>) => table(db).where({ account_id: accountId }).update(changes),

  /** Every connected store, across accounts (the sync and tracking jobs). */
  connected: (db: Knex) => table(db).where({ status: 'connected' }),
};

import type { Knex } from 'knex';

/**
 * Issue 36. `GET /api/v2/subscriptions?shop_subscription_id=`: the plugin finds the subscription that
 * bills one of WooCommerce Subscriptions' by the store's id (a cancel in My Account reaches it). Like
 * every list filter's index (migration 036): `account_id` first and `seq` last, so a page is a range read.
 */
const COLUMNS = ['account_id', 'shop_subscription_id', 'seq'];
const NAME = 'subscriptions_account_shop_subscription_id_seq_index';

export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('subscriptions', (t) => {
    t.index(COLUMNS, NAME);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('subscriptions', (t) => {
    t.dropIndex(COLUMNS, NAME);
  });
}

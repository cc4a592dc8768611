import type { Knex } from 'knex';

/**
 * What the store plugin reads at every checkout and on every order screen: a buyer's Customer by
 * e-mail (`GET /api/v2/customers?email=`), and one store order's payments, the subscriptions it
 * started and their follow-ups (`GET /api/v2/shop/orders/{id}`). Indexes keep each an indexed read
 * instead of a scan of the account's rows.
 */
const INDEXES: Array<[table: string, columns: string[], name: string]> = [
  ['customers', ['account_id', 'email'], 'customers_account_email_index'],
  ['payments', ['account_id', 'purpose_id'], 'payments_account_purpose_id_index'],
  ['subscriptions', ['account_id', 'origin_order_id'], 'subscriptions_account_origin_order_index'],
  ['follow_ups', ['account_id', 'subscription_id'], 'follow_ups_account_subscription_index'],
];

export async function up(db: Knex): Promise<void> {
  for (const [table, columns, name] of INDEXES) {
    await db.schema.alterTable(table, (t) => {
      t.index(columns, name);
    });
  }
}

export async function down(db: Knex): Promise<void> {
  for (const [table, columns, name] of INDEXES) {
    await db.schema.alterTable(table, (t) => {
      t.dropIndex(columns, name);
    });
  }
}

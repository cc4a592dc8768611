import type { Knex } from 'knex';

/** A store connected to an account (one per account): where it is, its REST keys, our webhooks there. */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('shops', (t) => {
    t.string('id', 40).primary(); // shp_…
    t.string('account_id', 40).notNullable().unique().references('accounts.id');
    t.string('platform', 16).notNullable(); // woocommerce
    t.string('url', 2048).notNullable();
    t.string('consumer_key', 191).notNullable();
    t.text('consumer_secret_encrypted').notNullable();
    // The secret WooCommerce signs its webhook deliveries with; ours, never the store's.
    t.text('webhook_secret_encrypted').notNullable();
    t.text('webhook_ids').nullable(); // JSON array of the store's webhook ids we registered
    // registered | not_reachable (PUBLIC_URL is not reachable from outside: the periodic sync is all) | failed
    t.string('webhooks_state', 16).notNullable();
    t.string('webhooks_error', 500).nullable();
    t.string('status', 16).notNullable(); // connected | disconnected
    t.dateTime('connected_at').nullable();
    t.dateTime('created_at').notNullable();
    t.dateTime('updated_at').notNullable();
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('shops');
}

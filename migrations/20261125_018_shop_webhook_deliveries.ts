import type { Knex } from 'knex';

/** Store webhook deliveries seen, by WooCommerce's delivery id: a duplicate delivery is applied once. */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('shop_webhook_deliveries', (t) => {
    t.bigIncrements('seq').primary();
    t.string('account_id', 40).notNullable().references('accounts.id');
    t.string('delivery_id', 64).notNullable();
    t.string('topic', 40).notNullable();
    t.string('resource_id', 40).nullable();
    t.dateTime('received_at').notNullable();
    t.unique(['account_id', 'delivery_id']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('shop_webhook_deliveries');
}

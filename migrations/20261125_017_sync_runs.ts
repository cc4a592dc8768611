import type { Knex } from 'knex';

/**
 * Store syncs. A run of one kind per store at a time: `running_key` is set while it runs and is
 * unique, so a second start — on any instance — finds the first instead of running beside it.
 * Products are kept by the store's id, uniquely, and marked deleted rather than removed.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('sync_runs', (t) => {
    t.bigIncrements('seq').primary();
    t.string('id', 40).notNullable().unique(); // syn_…
    t.string('account_id', 40).notNullable().references('accounts.id');
    t.string('kind', 16).notNullable(); // products | orders
    t.boolean('full').notNullable();
    t.string('status', 16).notNullable(); // running | succeeded | failed
    t.string('running_key', 80).nullable().unique(); // `<account>:<kind>` while running
    t.integer('pages_total').nullable();
    t.integer('pages_done').notNullable().defaultTo(0);
    t.integer('created').notNullable().defaultTo(0);
    t.integer('updated').notNullable().defaultTo(0);
    t.integer('unchanged').notNullable().defaultTo(0);
    t.integer('failed').notNullable().defaultTo(0);
    t.text('errors').notNullable(); // JSON: [{ record, error }], the first 100
    t.dateTime('heartbeat_at').notNullable(); // a run whose heartbeat stops (a crash) is taken over
    t.dateTime('started_at').notNullable();
    t.dateTime('finished_at').nullable();
    t.index(['account_id', 'seq']);
  });
  await db.schema.alterTable('shops', (t) => {
    // The newest `date_modified_gmt` an incremental sync has seen (Y-m-dTH:i:s, GMT): the next one
    // asks for what changed after it, minus an overlap.
    t.string('products_cursor', 19).nullable();
    t.string('orders_cursor', 19).nullable();
  });
  await db.schema.alterTable('products', (t) => {
    t.dateTime('deleted_at').nullable();
    t.unique(['account_id', 'shop_product_id']);
  });
  await db.schema.alterTable('products', (t) => {
    t.dropIndex(['account_id', 'shop_product_id']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('products', (t) => {
    t.index(['account_id', 'shop_product_id']);
  });
  await db.schema.alterTable('products', (t) => {
    t.dropUnique(['account_id', 'shop_product_id']);
    t.dropColumn('deleted_at');
  });
  await db.schema.alterTable('shops', (t) => {
    t.dropColumns('products_cursor', 'orders_cursor');
  });
  await db.schema.dropTable('sync_runs');
}

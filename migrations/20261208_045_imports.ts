import type { Knex } from 'knex';

/**
 * Imports of running subscriptions from elsewhere (a CSV file, Mollie's Subscriptions API,
 * WooCommerce Subscriptions):
 *
 * - `imports`: one run (or dry run) with its counts; `import_rows`: what became of each of the
 *   source's subscriptions in that run, keyed by the source's own id.
 * - `import_items`: what an import made for one source id, across runs (customer, mandate): the row
 *   is written before anything is made for it, so a rerun after a crash finds and finishes it.
 * - `subscriptions.source` / `source_id`: where an imported subscription came from (null: made here);
 *   unique per account, so a second run finds the subscription and creates none.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('imports', (t) => {
    t.string('id', 40).primary();
    t.string('account_id', 40).notNullable().references('id').inTable('accounts');
    t.string('source', 40).notNullable();
    t.boolean('dry_run').notNullable();
    t.string('status', 16).notNullable();
    t.integer('total').notNullable().defaultTo(0);
    t.integer('created').notNullable().defaultTo(0);
    t.integer('skipped').notNullable().defaultTo(0);
    t.integer('failed').notNullable().defaultTo(0);
    t.string('error', 500).nullable();
    t.dateTime('started_at').notNullable();
    t.dateTime('finished_at').nullable();
    t.dateTime('created_at').notNullable();
    t.dateTime('updated_at').notNullable();
    t.index(['account_id', 'created_at']);
  });
  await db.schema.createTable('import_rows', (t) => {
    t.increments('seq').primary();
    t.string('account_id', 40).notNullable();
    t.string('import_id', 40).notNullable().references('id').inTable('imports');
    t.string('source_id', 191).notNullable();
    t.integer('line').nullable();
    t.string('outcome', 16).notNullable();
    t.string('field', 64).nullable();
    t.string('reason', 500).nullable();
    t.string('customer_id', 40).nullable();
    t.string('subscription_id', 40).nullable();
    t.dateTime('created_at').notNullable();
    t.unique(['import_id', 'source_id']);
  });
  await db.schema.createTable('import_items', (t) => {
    t.increments('seq').primary();
    t.string('account_id', 40).notNullable();
    t.string('source', 40).notNullable();
    t.string('source_id', 191).notNullable();
    t.string('customer_id', 40).notNullable();
    t.string('mandate_id', 64).nullable();
    t.dateTime('created_at').notNullable();
    t.dateTime('updated_at').notNullable();
    t.unique(['account_id', 'source', 'source_id']);
  });
  await db.schema.alterTable('subscriptions', (t) => {
    t.string('source', 40).nullable();
    t.string('source_id', 191).nullable();
    t.unique(['account_id', 'source', 'source_id'], { indexName: 'subscriptions_source_unique' });
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('subscriptions', (t) => {
    t.dropUnique(['account_id', 'source', 'source_id'], 'subscriptions_source_unique');
  });
  // Natively (SQLite 3.35+ and MySQL): knex's table copy on SQLite would rebuild tables others refer to.
  await db.raw('ALTER TABLE ?? DROP COLUMN ??', ['subscriptions', 'source_id']);
  await db.raw('ALTER TABLE ?? DROP COLUMN ??', ['subscriptions', 'source']);
  await db.schema.dropTable('import_items');
  await db.schema.dropTable('import_rows');
  await db.schema.dropTable('imports');
}

import type { Knex } from 'knex';

/**
 * Issue 22. A skipped charge is stored as a one-day pause of `kind` 'skip' (charges in it are
 * skipped like a paused charge's and count against `times`), which a resume must not end. And an
 * index per list filter: `account_id` first, then the filtered column, then `seq`, the order a
 * filtered page is read in (db/paging.ts pageOf), so a filtered page is a range scan in order.
 */
const FILTER_INDEXES: Array<{ table: string; column: string }> = [
  { table: 'subscriptions', column: 'customer_id' },
  { table: 'subscriptions', column: 'status' },
  { table: 'payments', column: 'customer_id' },
  { table: 'payments', column: 'subscription_id' },
  { table: 'payments', column: 'status' },
  { table: 'follow_ups', column: 'status' },
  { table: 'follow_ups', column: 'subscription_id' },
  { table: 'orders', column: 'status' },
  { table: 'payment_links', column: 'status' },
];

const indexName = (table: string, column: string) => `${table}_account_${column}_seq_index`;

export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('subscription_pauses', (t) => {
    t.string('kind', 8).notNullable().defaultTo('pause');
  });
  for (const { table, column } of FILTER_INDEXES) {
    await db.schema.alterTable(table, (t) => {
      t.index(['account_id', column, 'seq'], indexName(table, column));
    });
  }
}

export async function down(db: Knex): Promise<void> {
  for (const { table, column } of FILTER_INDEXES) {
    await db.schema.alterTable(table, (t) => {
      t.dropIndex(['account_id', column, 'seq'], indexName(table, column));
    });
  }
  // Natively, not by knex's table copy on SQLite (see migration 035).
  await db.raw('ALTER TABLE ?? DROP COLUMN ??', ['subscription_pauses', 'kind']);
}

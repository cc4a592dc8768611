import type { Knex } from 'knex';

/**
 * Issue 22. A skipped charge is stored as a one-day pause of `kind` 'skip' (charges in it are
 * skipped like a paused charge's and count against `times`), which a resume must not end. And the
 * indexes of the list filters: `account_id` first and `seq` last, the order a filtered page is read
 * in (db/paging.ts pageOf), so a page is a range read in order. An id filter comes before `status`
 * in one index: with both given, the planner takes the index matching three columns (a customer's
 * few rows), never the status one (most of an account's rows) — SQLite has no statistics to tell
 * them apart. payments (account_id, status) exists (migration 004): both databases append the
 * primary key `seq` to it.
 */
const FILTER_INDEXES: Array<{ table: string; columns: string[] }> = [
  { table: 'subscriptions', columns: ['customer_id', 'status'] },
  { table: 'subscriptions', columns: ['status'] },
  { table: 'payments', columns: ['customer_id', 'status'] },
  { table: 'payments', columns: ['subscription_id', 'status'] },
  { table: 'follow_ups', columns: ['subscription_id', 'status'] },
  { table: 'follow_ups', columns: ['status'] },
  { table: 'orders', columns: ['status'] },
  { table: 'payment_links', columns: ['status'] },
];

const indexName = (table: string, columns: string[]) => `${table}_account_${columns.join('_')}_seq_index`;

export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('subscription_pauses', (t) => {
    t.string('kind', 8).notNullable().defaultTo('pause');
  });
  for (const { table, columns } of FILTER_INDEXES) {
    await db.schema.alterTable(table, (t) => {
      t.index(['account_id', ...columns, 'seq'], indexName(table, columns));
    });
  }
}

export async function down(db: Knex): Promise<void> {
  for (const { table, columns } of FILTER_INDEXES) {
    await db.schema.alterTable(table, (t) => {
      t.dropIndex(['account_id', ...columns, 'seq'], indexName(table, columns));
    });
  }
  // Natively, not by knex's table copy on SQLite (see migration 035).
  await db.raw('ALTER TABLE ?? DROP COLUMN ??', ['subscription_pauses', 'kind']);
}

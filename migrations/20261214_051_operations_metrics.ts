import type { Knex } from 'knex';

/**
 * What `/metrics` reads at each scrape (issue 26): how many charges a finished billing run made
 * (`billing_runs.charged`, so its rate is known whichever instance ran it), and each store's latest
 * successful order sync as one index read (its lag).
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('billing_runs', (t) => {
    t.integer('charged').nullable(); // set when the run finishes
  });
  await db.schema.alterTable('sync_runs', (t) => {
    t.index(['account_id', 'kind', 'status', 'finished_at']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('sync_runs', (t) => t.dropIndex(['account_id', 'kind', 'status', 'finished_at']));
  await db.raw('ALTER TABLE ?? DROP COLUMN ??', ['billing_runs', 'charged']);
}

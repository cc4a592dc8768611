import type { Knex } from 'knex';

/**
 * Billing runs, so a run that did not happen at BILLING_CRON (the service was down, the time fell in
 * a daylight-saving gap, a crash mid-run) is noticed and made up. A run beats `alive_at` while it
 * goes; one that stops beating without `finished_at` crashed.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('billing_runs', (t) => {
    t.bigIncrements('seq').primary();
    t.date('billing_date').notNullable(); // the date billed as of, in APP_TIMEZONE
    t.dateTime('started_at').notNullable();
    t.dateTime('alive_at').notNullable();
    t.dateTime('finished_at').nullable();
    t.index(['started_at']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('billing_runs');
}

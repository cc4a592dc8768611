import type { Knex } from 'knex';

/**
 * `subscriptions.handover_pending`: an imported subscription whose source still bills it (Mollie's
 * subscription not cancelled yet, the store's subscription not switched to our gateway yet). Billing
 * plans no charge of it until the import has handed the schedule over, so that exactly one system
 * bills a period: a hand-over that failed or waits (Mollie's charge of today) delays our charge, it
 * never doubles it. False for every subscription made here.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('subscriptions', (t) => {
    t.boolean('handover_pending').notNullable().defaultTo(false);
  });
}

export async function down(db: Knex): Promise<void> {
  // Natively (SQLite 3.35+ and MySQL): knex's table copy on SQLite would rebuild tables others refer to.
  await db.raw('ALTER TABLE ?? DROP COLUMN ??', ['subscriptions', 'handover_pending']);
}

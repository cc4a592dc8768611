import type { Knex } from 'knex';

/**
 * A store product's free trial (days before its first charge) and sign-up fee (cents, charged once at the checkout),
 * from the plugin's `_rps_trial_days` and `_rps_signup_fee`. Null on products without them (every product made
 * here, and store products synced before): no trial, no fee.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('products', (t) => {
    t.integer('trial_days').nullable();
    t.bigInteger('signup_fee').nullable();
  });
}

export async function down(db: Knex): Promise<void> {
  // Natively, not by knex's table copy on SQLite: the copy would lose the tables' numbering triggers (migration 022).
  await db.raw('ALTER TABLE ?? DROP COLUMN ??', ['products', 'signup_fee']);
  await db.raw('ALTER TABLE ?? DROP COLUMN ??', ['products', 'trial_days']);
}

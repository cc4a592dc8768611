import type { Knex } from 'knex';

/**
 * A new mandate takes over a customer's subscriptions.
 *
 * - `mandate_takeovers`: one per `mandate` link that carries a takeover: which subscriptions of its
 *   customer the mandate of its paid first payment takes over (`subscription_ids` as a JSON list; null:
 *   every subscription of the customer in use). `taken_over_at` marks it done, so it happens once.
 * - `mandate_revocations`: an old mandate no subscription uses any more is revoked at the provider
 *   after the settle transaction commits; this row records in that transaction that it is due, so a
 *   crash between the commit and the provider call still revokes it on a later run.
 * - `account_takeover_settings`: whether a new store checkout's mandate takes over the customer's
 *   subscriptions (`cli accounts set-takeover --store-checkout on|off`, off by default).
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('mandate_takeovers', (t) => {
    t.string('link_id', 40).primary();
    t.string('account_id', 40).notNullable().references('id').inTable('accounts');
    t.string('customer_id', 40).notNullable();
    t.text('subscription_ids').nullable();
    t.string('new_mandate_id', 64).nullable();
    t.dateTime('taken_over_at').nullable();
    t.dateTime('created_at').notNullable();
    t.index(['account_id', 'customer_id']);
  });
  await db.schema.createTable('mandate_revocations', (t) => {
    t.string('account_id', 40).notNullable().references('id').inTable('accounts');
    t.string('mandate_id', 64).notNullable();
    t.string('customer_id', 40).notNullable();
    t.dateTime('due_at').notNullable();
    t.dateTime('revoked_at').nullable();
    t.integer('attempts').notNullable().defaultTo(0);
    t.string('last_error', 191).nullable();
    t.dateTime('created_at').notNullable();
    t.primary(['account_id', 'mandate_id']);
    t.index(['revoked_at', 'due_at']);
  });
  await db.schema.createTable('account_takeover_settings', (t) => {
    t.string('account_id', 40).primary().references('id').inTable('accounts');
    t.boolean('store_checkout').notNullable().defaultTo(false);
    t.dateTime('updated_at').notNullable();
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('account_takeover_settings');
  await db.schema.dropTable('mandate_revocations');
  await db.schema.dropTable('mandate_takeovers');
}

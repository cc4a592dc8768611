import type { Knex } from 'knex';

/**
 * What the portal's actions leave behind:
 *
 * - `subscriptions.cancel_reason`: the reason a customer gave when cancelling in the portal (optional;
 *   told to the merchant in the event and kept with the subscription).
 * - `mandate_takeovers.requested_via`: who started a takeover (`portal` for the customer's own change of
 *   payment method; null: the API, a follow-up or a store checkout), so the takeover confirms it to
 *   the customer by mail when its payment is paid, in the same transaction.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('subscriptions', (t) => {
    t.string('cancel_reason', 500).nullable();
  });
  await db.schema.alterTable('mandate_takeovers', (t) => {
    t.string('requested_via', 16).nullable();
  });
}

export async function down(db: Knex): Promise<void> {
  // Natively (SQLite 3.35+ and MySQL): knex's table copy on SQLite would rebuild tables others refer to.
  await db.raw('ALTER TABLE ?? DROP COLUMN ??', ['mandate_takeovers', 'requested_via']);
  await db.raw('ALTER TABLE ?? DROP COLUMN ??', ['subscriptions', 'cancel_reason']);
}

import type { Knex } from 'knex';

/**
 * What a buyer bought, as the store's order says it, so renewals charge that and not the catalogue.
 * Per line: `amount`, the store's `subtotal + subtotal_tax` in cents (before one-time coupons; null
 * when the store did not say), and `shop_subtotal`, the store's own subtotal without tax (its decimal
 * text, given back to the store on a renewal order). Per order: its gateway (`payment_method`, its
 * title) and its shipping lines (JSON: method, title, the store's total without tax, its total with
 * tax in cents), which recur for what is shipped; `subscription_refusal` says why a paid store order
 * started no subscription (an amount that could not be derived).
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('order_lines', (t) => {
    t.bigInteger('amount').nullable();
    t.string('shop_subtotal', 32).nullable();
  });
  await db.schema.alterTable('orders', (t) => {
    t.string('payment_method', 191).nullable();
    t.string('payment_method_title', 191).nullable();
    t.text('shipping_lines').nullable();
    t.string('subscription_refusal', 500).nullable();
  });
}

export async function down(db: Knex): Promise<void> {
  // Natively, not by knex's table copy on SQLite: the copy would lose the tables' numbering triggers (migration 022).
  for (const column of ['amount', 'shop_subtotal']) await db.raw('ALTER TABLE ?? DROP COLUMN ??', ['order_lines', column]);
  for (const column of ['payment_method', 'payment_method_title', 'shipping_lines', 'subscription_refusal']) {
    await db.raw('ALTER TABLE ?? DROP COLUMN ??', ['orders', column]);
  }
}

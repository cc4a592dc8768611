import type { Knex } from 'knex';

/**
 * WooCommerce Subscriptions' subscriptions (the store's `shop_subscription` ids), when that extension
 * sold them with our gateway (it then leaves the billing to the service):
 *
 * - `order_lines.shop_subscription_id`: on a store order's line, the extension's subscription that
 *   holds it (the plugin says so on the checkout order); the lines of one become one Subscription.
 * - `subscriptions.shop_subscription_id`: the extension's subscription a Subscription bills; its
 *   renewal orders are linked to it, and status changes are mirrored both ways.
 *
 * Null everywhere else (orders without the extension, subscriptions made by the API or a link).
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('order_lines', (t) => {
    t.bigInteger('shop_subscription_id').nullable();
  });
  await db.schema.alterTable('subscriptions', (t) => {
    t.bigInteger('shop_subscription_id').nullable();
  });
}

export async function down(db: Knex): Promise<void> {
  // Natively (SQLite 3.35+ and MySQL): knex's table copy on SQLite would rebuild tables others refer to.
  await db.raw('ALTER TABLE ?? DROP COLUMN ??', ['subscriptions', 'shop_subscription_id']);
  await db.raw('ALTER TABLE ?? DROP COLUMN ??', ['order_lines', 'shop_subscription_id']);
}

import type { Knex } from 'knex';

/**
 * Checkout to payments and renewals: orders made here for a subscription's charge (renewal orders)
 * are keyed by the charge, subscriptions made from a store order are keyed by that order and their
 * interval, and every write to the store waits in `shop_tasks` until the store has taken it.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('orders', (t) => {
    // `renewal-<charge id>`: one renewal order per charge, however often the charge settles.
    t.string('origin_key', 80).nullable();
    t.string('parent_order_id', 40).nullable();
    t.unique(['account_id', 'origin_key']);
  });
  await db.schema.alterTable('order_lines', (t) => {
    // The subscription this line of a store order became; a renewal order repeats these lines.
    t.string('subscription_id', 40).nullable();
  });
  await db.schema.alterTable('subscriptions', (t) => {
    // `order-<order id>-<interval>`: a paid order makes each of its subscriptions once.
    t.string('origin_key', 80).nullable();
    t.string('origin_order_id', 40).nullable();
    t.unique(['account_id', 'origin_key']);
  });
  await db.schema.createTable('shop_tasks', (t) => {
    t.bigIncrements('seq').primary();
    t.string('id', 40).notNullable().unique();
    t.string('account_id', 40).notNullable().references('accounts.id');
    t.string('order_id', 40).notNullable().references('orders.id');
    t.string('kind', 16).notNullable(); // paid | unpaid | renewal
    t.string('payment_id', 40).nullable();
    // One task per payment outcome (`paid-<payment id>`…): a repeated settlement queues nothing new.
    t.string('origin_key', 80).notNullable();
    t.string('status', 16).notNullable(); // pending | done | dead
    t.integer('attempts').notNullable().defaultTo(0);
    t.dateTime('next_attempt_at').notNullable();
    t.string('last_error', 500).nullable();
    t.dateTime('done_at').nullable();
    t.dateTime('created_at').notNullable();
    t.unique(['account_id', 'origin_key']);
    t.index(['status', 'next_attempt_at']);
    t.index(['account_id', 'order_id']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('shop_tasks');
  await db.schema.alterTable('subscriptions', (t) => {
    t.dropUnique(['account_id', 'origin_key']);
    t.dropColumns('origin_key', 'origin_order_id');
  });
  await db.schema.alterTable('order_lines', (t) => t.dropColumn('subscription_id'));
  await db.schema.alterTable('orders', (t) => {
    t.dropUnique(['account_id', 'origin_key']);
    t.dropColumns('origin_key', 'parent_order_id');
  });
}

import type { Knex } from 'knex';

/**
 * Payment links that can be created and paid: the rules a subscription link signs the buyer up to,
 * when its reminder went out and when it was paid, and one fulfilment row per link whose primary key
 * makes "paid twice at once" or a duplicate webhook fulfil it (create its subscription) only once.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('payment_links', (t) => {
    t.text('rules').nullable(); // JSON: the subscription's rules, amounts in cents
    t.string('product_id', 40).nullable().references('products.id');
    t.dateTime('reminder_sent_at').nullable();
    t.dateTime('paid_at').nullable();
    t.index(['status', 'reminder_at'], 'payment_links_reminders');
    t.index(['status', 'expires_at'], 'payment_links_expiry');
  });
  await db.schema.createTable('link_fulfilments', (t) => {
    t.string('link_id', 40).primary().references('payment_links.id');
    t.string('account_id', 40).notNullable().references('accounts.id');
    t.string('payment_id', 40).notNullable().references('payments.id');
    t.string('subscription_id', 40).nullable().references('subscriptions.id');
    t.dateTime('created_at').notNullable();
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('link_fulfilments');
  await db.schema.alterTable('payment_links', (t) => {
    t.dropIndex(['status', 'reminder_at'], 'payment_links_reminders');
    t.dropIndex(['status', 'expires_at'], 'payment_links_expiry');
    t.dropForeign(['product_id']);
    t.dropColumn('rules');
    t.dropColumn('product_id');
    t.dropColumn('reminder_sent_at');
    t.dropColumn('paid_at');
  });
}

import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('payments', (t) => {
    t.bigIncrements('seq').primary();
    t.string('id', 40).notNullable().unique();
    t.string('account_id', 40).notNullable().references('accounts.id');
    t.string('customer_id', 40).nullable().references('customers.id');
    t.string('subscription_id', 40).nullable().references('subscriptions.id');
    t.string('provider_payment_id', 64).nullable().unique();
    t.string('provider_customer_id', 64).nullable();
    t.string('provider_mandate_id', 64).nullable();
    t.string('provider_profile_id', 64).nullable();
    t.string('sequence_type', 16).notNullable();
    t.string('status', 16).notNullable();
    t.bigInteger('amount').notNullable(); // cents
    t.string('currency', 3).notNullable();
    t.string('description', 191).notNullable();
    t.string('method', 32).nullable();
    t.string('redirect_url', 2048).nullable();
    t.string('webhook_url', 2048).nullable();
    t.string('checkout_url', 2048).nullable();
    t.string('failure_reason', 191).nullable();
    t.string('failure_code', 32).nullable();
    t.dateTime('paid_at').nullable();
    t.dateTime('created_at').notNullable();
    t.dateTime('updated_at').notNullable();
    t.index(['account_id', 'seq']);
    t.index(['account_id', 'status']);
  });
  await db.schema.createTable('payment_status_changes', (t) => {
    t.bigIncrements('seq').primary();
    t.string('account_id', 40).notNullable().references('accounts.id');
    t.string('payment_id', 40).notNullable().references('payments.id');
    t.string('status', 16).notNullable();
    t.dateTime('changed_at').notNullable();
    t.index(['account_id', 'payment_id']);
  });
  await db.schema.createTable('payment_links', (t) => {
    t.bigIncrements('seq').primary();
    t.string('id', 40).notNullable().unique();
    t.string('account_id', 40).notNullable().references('accounts.id');
    t.string('customer_id', 40).nullable().references('customers.id');
    t.string('subscription_id', 40).nullable().references('subscriptions.id');
    t.string('type', 16).notNullable();
    t.string('status', 16).notNullable();
    t.boolean('active').notNullable();
    t.string('description', 191).notNullable();
    t.string('currency', 3).notNullable();
    t.bigInteger('amount').notNullable();
    t.bigInteger('first_amount').nullable();
    t.string('interval', 8).nullable();
    t.integer('times').nullable();
    t.string('trial_interval', 32).nullable();
    t.dateTime('reminder_at').nullable();
    t.string('redirect_url_paid', 2048).nullable();
    t.string('redirect_url_failed', 2048).nullable();
    t.date('expires_at').nullable();
    t.dateTime('created_at').notNullable();
    t.dateTime('updated_at').notNullable();
    t.index(['account_id', 'seq']);
  });
  await db.schema.createTable('orders', (t) => {
    t.bigIncrements('seq').primary();
    t.string('id', 40).notNullable().unique();
    t.string('account_id', 40).notNullable().references('accounts.id');
    t.string('status', 16).notNullable();
    t.bigInteger('total_amount').notNullable();
    t.string('currency', 3).notNullable();
    t.string('order_number', 64).notNullable();
    for (const field of [
      'first_name',
      'last_name',
      'email',
      'organization_name',
      'phone',
      'address',
      'postal_code',
      'city',
      'vat_number',
    ]) {
      t.string(field, 191).nullable();
    }
    t.string('country', 2).nullable();
    t.string('carrier', 64).nullable();
    t.string('tracktrace', 191).nullable();
    t.bigInteger('shop_order_id').nullable();
    t.string('shop_order_number', 64).nullable();
    t.string('subscription_id', 40).nullable().references('subscriptions.id');
    t.string('subscription_status', 16).nullable();
    t.date('cancel_subscription_at').nullable();
    t.dateTime('created_at').notNullable();
    t.dateTime('updated_at').notNullable();
    t.index(['account_id', 'seq']);
    t.unique(['account_id', 'shop_order_id']);
  });
  await db.schema.createTable('order_lines', (t) => {
    t.string('id', 40).primary();
    t.string('account_id', 40).notNullable().references('accounts.id');
    t.string('order_id', 40).notNullable().references('orders.id');
    t.string('product_id', 40).notNullable().references('products.id');
    t.integer('position').notNullable();
    t.integer('quantity').notNullable();
    t.date('next_order').nullable();
    t.index(['account_id', 'order_id']);
  });
  await db.schema.createTable('follow_ups', (t) => {
    t.bigIncrements('seq').primary();
    t.string('id', 40).notNullable().unique();
    t.string('account_id', 40).notNullable().references('accounts.id');
    t.string('customer_id', 40).nullable().references('customers.id');
    t.string('subscription_id', 40).nullable().references('subscriptions.id');
    t.string('order_id', 40).nullable().references('orders.id');
    t.string('payment_id', 40).nullable().references('payments.id');
    t.string('type', 8).notNullable();
    t.string('status', 16).notNullable();
    t.string('description', 191).notNullable();
    t.bigInteger('amount').notNullable();
    t.string('currency', 3).notNullable();
    t.string('provider_profile_id', 64).nullable();
    t.string('provider_payment_id', 64).nullable();
    t.string('reason', 191).nullable();
    t.string('reason_code', 32).nullable();
    t.integer('retries_done').notNullable().defaultTo(0);
    t.integer('mails_sent').notNullable().defaultTo(0);
    t.date('next_retry_at').nullable();
    t.dateTime('created_at').notNullable();
    t.dateTime('updated_at').notNullable();
    t.index(['account_id', 'seq']);
    t.index(['account_id', 'status', 'next_retry_at']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('follow_ups');
  await db.schema.dropTable('order_lines');
  await db.schema.dropTable('orders');
  await db.schema.dropTable('payment_links');
  await db.schema.dropTable('payment_status_changes');
  await db.schema.dropTable('payments');
}

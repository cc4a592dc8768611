import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('subscriptions', (t) => {
    t.bigIncrements('seq').primary();
    t.string('id', 40).notNullable().unique();
    t.string('account_id', 40).notNullable().references('accounts.id');
    t.string('customer_id', 40).notNullable().references('customers.id');
    t.string('name', 191).notNullable();
    t.string('status', 16).notNullable();
    t.date('start_date').notNullable();
    t.string('currency', 3).notNullable();
    t.string('provider_mandate_id', 64).notNullable();
    t.string('provider_profile_id', 64).notNullable();
    t.date('next_payment_at').nullable();
    t.bigInteger('next_amount').nullable(); // cents
    t.dateTime('last_payment_created_at').nullable();
    t.date('resume_at').nullable();
    t.date('cancel_at').nullable();
    t.string('workflow_id', 191).nullable();
    t.string('docstyle_id', 191).nullable();
    t.dateTime('created_at').notNullable();
    t.dateTime('updated_at').notNullable();
    t.index(['account_id', 'seq']);
    t.index(['account_id', 'status', 'next_payment_at']);
    t.index(['account_id', 'customer_id']);
  });
  await db.schema.createTable('subscription_rules', (t) => {
    t.string('id', 40).primary();
    t.string('account_id', 40).notNullable().references('accounts.id');
    t.string('subscription_id', 40).notNullable().references('subscriptions.id');
    t.integer('position').notNullable(); // rules run one after another in this order
    t.bigInteger('amount').notNullable(); // cents
    t.string('currency', 3).notNullable();
    t.string('interval', 8).notNullable();
    t.integer('interval_amount').notNullable();
    t.integer('day').notNullable();
    t.integer('times').nullable(); // null: until cancelled
    t.integer('times_done').notNullable().defaultTo(0);
    t.unique(['subscription_id', 'position']);
    t.index(['account_id', 'subscription_id']);
  });
  await db.schema.createTable('invoice_rules', (t) => {
    t.string('id', 40).primary();
    t.string('account_id', 40).notNullable().references('accounts.id');
    t.string('subscription_rule_id', 40).notNullable().references('subscription_rules.id');
    t.integer('position').notNullable();
    t.integer('quantity').notNullable();
    t.string('description', 191).notNullable();
    t.bigInteger('amount').notNullable(); // cents, may be negative for a discount line
    t.string('vat', 8).nullable();
    t.string('ledger_account_id', 191).nullable();
    t.index(['account_id', 'subscription_rule_id']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('invoice_rules');
  await db.schema.dropTable('subscription_rules');
  await db.schema.dropTable('subscriptions');
}

import type { Knex } from 'knex';

/** State of the in-process sandbox provider: what Mollie would hold on its side. */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('sandbox_customers', (t) => {
    t.string('id', 64).primary(); // cst_…
    t.string('account_id', 40).notNullable().references('accounts.id');
    t.string('name', 400).notNullable();
    t.string('email', 191).notNullable();
    t.string('locale', 8).nullable();
    t.string('idempotency_key', 255).nullable();
    t.dateTime('created_at').notNullable();
    t.unique(['account_id', 'idempotency_key']);
  });
  await db.schema.createTable('sandbox_mandates', (t) => {
    t.string('id', 64).primary(); // mdt_…
    t.string('account_id', 40).notNullable().references('accounts.id');
    t.string('customer_id', 64).notNullable().references('sandbox_customers.id');
    t.string('method', 32).notNullable();
    t.string('status', 16).notNullable();
    t.string('consumer_name', 191).nullable();
    t.string('consumer_account', 64).nullable();
    t.string('consumer_bic', 16).nullable();
    t.string('mandate_reference', 191).nullable();
    t.date('signature_date').nullable();
    t.string('idempotency_key', 255).nullable();
    t.dateTime('created_at').notNullable();
    t.unique(['account_id', 'idempotency_key']);
    t.index(['account_id', 'customer_id']);
  });
  await db.schema.createTable('sandbox_payments', (t) => {
    t.string('id', 64).primary(); // tr_…
    t.string('account_id', 40).notNullable().references('accounts.id');
    t.string('customer_id', 64).nullable();
    t.string('mandate_id', 64).nullable();
    t.string('sequence_type', 16).notNullable();
    t.string('status', 16).notNullable();
    t.bigInteger('amount').notNullable();
    t.string('currency', 3).notNullable();
    t.string('description', 191).notNullable();
    t.string('method', 32).nullable();
    t.string('redirect_url', 2048).nullable();
    t.string('failure_reason', 191).nullable();
    t.string('failure_code', 32).nullable();
    t.string('idempotency_key', 255).nullable();
    t.dateTime('paid_at').nullable();
    t.dateTime('created_at').notNullable();
    t.dateTime('updated_at').notNullable();
    t.unique(['account_id', 'idempotency_key']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('sandbox_payments');
  await db.schema.dropTable('sandbox_mandates');
  await db.schema.dropTable('sandbox_customers');
}

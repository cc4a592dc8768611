import type { Knex } from 'knex';

/**
 * Moneybird (issue 25): an account's connection (administration and API token, the token sealed with
 * APP_KEY), the Moneybird contact of each customer, and an outbox of documents to create there — one
 * row per sales invoice or credit invoice, unique by our reference, so a charge never becomes two
 * invoices at Moneybird. `invoices.bookkeeping_error` tells why an invoice did not reach the system.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('moneybird_connections', (t) => {
    t.string('account_id', 40).primary().references('accounts.id');
    t.string('administration_id', 64).notNullable();
    t.text('token_encrypted').notNullable();
    t.boolean('send_invoices').notNullable().defaultTo(false);
    t.dateTime('created_at').notNullable();
    t.dateTime('updated_at').notNullable();
  });
  await db.schema.createTable('moneybird_contacts', (t) => {
    t.string('account_id', 40).notNullable();
    t.string('customer_id', 40).notNullable();
    t.string('administration_id', 64).notNullable();
    t.string('contact_id', 64).notNullable();
    t.dateTime('created_at').notNullable();
    t.primary(['account_id', 'customer_id', 'administration_id']);
  });
  await db.schema.createTable('bookkeeping_outbox', (t) => {
    t.string('id', 40).primary();
    t.string('account_id', 40).notNullable();
    t.string('system', 64).notNullable();
    t.string('kind', 16).notNullable(); // 'invoice' | 'credit'
    t.string('invoice_id', 40).notNullable();
    // Our reference at the system: the invoice id, or the credit's own id. Unique: one document each.
    t.string('reference', 100).notNullable().unique();
    t.text('credit_lines').nullable(); // JSON InvoiceLine[] of a credit (positive amounts, credited)
    t.string('credit_reason', 32).nullable(); // 'refund' | 'chargeback'
    t.string('status', 16).notNullable(); // 'pending' | 'sent' | 'failed'
    t.string('step', 16).notNullable(); // 'create' | 'send' | 'pay' | 'done'
    t.string('external_id', 64).nullable();
    t.integer('attempts').notNullable().defaultTo(0);
    t.dateTime('next_attempt_at').notNullable();
    t.string('last_error', 500).nullable();
    t.dateTime('created_at').notNullable();
    t.dateTime('updated_at').notNullable();
    t.index(['status', 'next_attempt_at']);
    t.index(['account_id', 'invoice_id']);
  });
  await db.schema.alterTable('invoices', (t) => {
    t.string('bookkeeping_error', 500).nullable();
  });
}

export async function down(db: Knex): Promise<void> {
  await db.raw('ALTER TABLE ?? DROP COLUMN ??', ['invoices', 'bookkeeping_error']);
  await db.schema.dropTable('bookkeeping_outbox');
  await db.schema.dropTable('moneybird_contacts');
  await db.schema.dropTable('moneybird_connections');
}

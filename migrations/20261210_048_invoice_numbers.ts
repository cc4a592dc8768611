import type { Knex } from 'knex';

/**
 * Invoices for every account. `invoice_settings`: one row per account holding its numbering (the
 * prefix and the next number, taken in place under the row's lock in the transaction that writes
 * the invoice, so numbers have no gaps), its default VAT rate, OSS, the mail when paid and the
 * seller's details printed on the invoice. `invoices` gain their number (null while not issued),
 * status (`issued` or `not_issued` with the reason) and the snapshot of seller, buyer, date and
 * VAT totals the PDF is drawn from. `credit_notes`: negative documents referring to an invoice,
 * numbered from the same sequence, once per source (a chargeback, a refund).
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('invoice_settings', (t) => {
    t.string('account_id', 40).primary().references('accounts.id');
    t.string('prefix', 32).notNullable().defaultTo('');
    t.bigInteger('next_number').notNullable().defaultTo(1);
    t.string('default_vat', 8).nullable(); // a percentage such as '21'; null: no VAT
    t.boolean('oss').notNullable().defaultTo(false);
    t.boolean('mail_when_paid').notNullable().defaultTo(false);
    t.string('seller_address', 191).nullable();
    t.string('seller_postal_code', 32).nullable();
    t.string('seller_city', 191).nullable();
    t.string('seller_country', 2).nullable();
    t.string('seller_vat_number', 32).nullable();
    t.dateTime('updated_at').notNullable();
  });
  await db.schema.alterTable('invoices', (t) => {
    t.string('number', 64).nullable();
    t.string('customer_id', 40).nullable();
    t.string('status', 16).notNullable().defaultTo('issued');
    t.string('not_issued_reason', 255).nullable();
    t.text('document').nullable(); // JSON snapshot: seller, buyer, date, locale, reference, VAT totals
    t.unique(['account_id', 'number']);
  });
  await db.schema.createTable('credit_notes', (t) => {
    t.bigIncrements('seq').primary();
    t.string('id', 40).notNullable().unique(); // crn_…
    t.string('account_id', 40).notNullable().references('accounts.id');
    t.string('invoice_id', 40).notNullable();
    t.string('payment_id', 40).notNullable();
    t.string('number', 64).notNullable();
    t.string('reason', 16).notNullable(); // refund | chargeback
    t.string('source_key', 191).notNullable();
    t.string('currency', 3).notNullable();
    t.text('lines').notNullable();
    t.bigInteger('total_excluding_vat').notNullable(); // negative cents
    t.bigInteger('total_vat').notNullable();
    t.bigInteger('total_including_vat').notNullable();
    t.text('document').notNullable();
    t.dateTime('created_at').notNullable();
    t.unique(['account_id', 'number']);
    t.unique(['account_id', 'source_key']);
    t.index(['account_id', 'invoice_id']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('credit_notes');
  await db.schema.alterTable('invoices', (t) => t.dropUnique(['account_id', 'number']));
  // Natively (SQLite 3.35+ and MySQL).
  for (const column of ['number', 'customer_id', 'status', 'not_issued_reason', 'document']) {
    await db.raw('ALTER TABLE ?? DROP COLUMN ??', ['invoices', column]);
  }
  await db.schema.dropTable('invoice_settings');
}

import type { Knex } from 'knex';

/**
 * Renewal invoices carry the VAT the store charged (issue 36): the VAT rate of each store order line
 * (from the order's tax lines), so a subscription started by the order gets invoice rules at that rate;
 * and on a subscription whose rate could not be derived (a store tax without a named rate, an import
 * that named none), why: its invoices are then `not_issued` with that reason, never guessed. An invoice
 * rule also keeps the VAT the store charged on its line (cents, null: computed from the rate), since a
 * store with prices entered with tax rounds it from the gross: 10.00 at 21 % is 8.26 + 1.74, not 1.73.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('order_lines', (t) => {
    t.string('vat_rate', 8).nullable();
  });
  await db.schema.alterTable('subscriptions', (t) => {
    t.string('invoice_refusal', 255).nullable();
  });
  await db.schema.alterTable('invoice_rules', (t) => {
    t.integer('vat_amount').nullable();
  });
}

export async function down(db: Knex): Promise<void> {
  await db.raw('ALTER TABLE ?? DROP COLUMN ??', ['invoice_rules', 'vat_amount']);
  await db.raw('ALTER TABLE ?? DROP COLUMN ??', ['subscriptions', 'invoice_refusal']);
  await db.raw('ALTER TABLE ?? DROP COLUMN ??', ['order_lines', 'vat_rate']);
}

import type { Knex } from 'knex';

/**
 * Refunds the books can trust (issue 36, item 7):
 * - `refunds.sequence`: a payment's refunds in the order they were made, also within one second
 *   (`created_at` has whole seconds). It is taken from `payments.refunds_made`, counted up in the
 *   same update that reserves the refund's amount, so two refunds of one payment never share one.
 *   Refunds made before this have none and list first, by time.
 * - `refunds.reference`: the client's own reference of a refund (the store plugin's refund), unique
 *   per account: a refund asked again with it, however much later, answers the first one.
 * - `bookkeeping_outbox.credit_prices_incl_tax`: a credit invoice whose lines are VAT-inclusive
 *   amounts (a partial refund), sent so, so that its total is exactly what went back.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('payments', (t) => {
    t.integer('refunds_made').notNullable().defaultTo(0);
  });
  await db.schema.alterTable('refunds', (t) => {
    t.integer('sequence').nullable();
    t.string('reference', 191).nullable();
    t.unique(['account_id', 'payment_id', 'sequence'], { indexName: 'refunds_payment_sequence_unique' });
    t.unique(['account_id', 'reference'], { indexName: 'refunds_account_reference_unique' });
  });
  await db.schema.alterTable('bookkeeping_outbox', (t) => {
    t.boolean('credit_prices_incl_tax').notNullable().defaultTo(false);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.raw('ALTER TABLE ?? DROP COLUMN ??', ['bookkeeping_outbox', 'credit_prices_incl_tax']);
  await db.schema.alterTable('refunds', (t) => {
    t.dropUnique(['account_id', 'reference'], 'refunds_account_reference_unique');
    t.dropUnique(['account_id', 'payment_id', 'sequence'], 'refunds_payment_sequence_unique');
  });
  await db.raw('ALTER TABLE ?? DROP COLUMN ??', ['refunds', 'reference']);
  await db.raw('ALTER TABLE ?? DROP COLUMN ??', ['refunds', 'sequence']);
  await db.raw('ALTER TABLE ?? DROP COLUMN ??', ['payments', 'refunds_made']);
}

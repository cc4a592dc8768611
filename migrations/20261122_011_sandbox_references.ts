import type { Knex } from 'knex';

/**
 * The sandbox provider keeps our references, so lost answers can be looked up; the money that went
 * back on a payment; and the card details of the mandates that paid first payments create.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('sandbox_customers', (t) => {
    t.string('reference', 64).nullable(); // our cus_…
    t.index(['account_id', 'reference'], 'sandbox_customers_reference_index');
  });
  await db.schema.alterTable('sandbox_payments', (t) => {
    t.string('reference', 64).nullable(); // our pay_…
    t.bigInteger('amount_refunded').notNullable().defaultTo(0);
    t.bigInteger('amount_charged_back').notNullable().defaultTo(0);
    t.index(['account_id', 'reference'], 'sandbox_payments_reference_index');
  });
  await db.schema.alterTable('sandbox_mandates', (t) => {
    t.string('card_holder', 191).nullable();
    t.string('card_number', 4).nullable(); // the last four digits
    t.string('card_label', 32).nullable();
    t.date('card_expiry_date').nullable();
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('sandbox_mandates', (t) => {
    t.dropColumns('card_holder', 'card_number', 'card_label', 'card_expiry_date');
  });
  await db.schema.alterTable('sandbox_payments', (t) => {
    t.dropIndex(['account_id', 'reference'], 'sandbox_payments_reference_index');
    t.dropColumns('reference', 'amount_refunded', 'amount_charged_back');
  });
  await db.schema.alterTable('sandbox_customers', (t) => {
    t.dropIndex(['account_id', 'reference'], 'sandbox_customers_reference_index');
    t.dropColumns('reference');
  });
}

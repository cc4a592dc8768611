import type { Knex } from 'knex';

/**
 * News of a payment that comes late. `payments.amount_charged_back`: the cents a chargeback took
 * back, as the provider reported them (0: none), so a partial chargeback is followed up for that
 * amount, not the whole payment. `provider_webhook_calls.reconciled_at`: when reconciliation brought
 * in the payment of a call given up after 26 hours; calls given up before this are still waiting.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('payments', (t) => {
    t.bigInteger('amount_charged_back').notNullable().defaultTo(0); // cents, like amount
  });
  await db.schema.alterTable('provider_webhook_calls', (t) => {
    t.dateTime('reconciled_at').nullable();
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('provider_webhook_calls', (t) => {
    t.dropColumn('reconciled_at');
  });
  await db.schema.alterTable('payments', (t) => {
    t.dropColumn('amount_charged_back');
  });
}

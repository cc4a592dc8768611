import type { Knex } from 'knex';

/**
 * Issue 38: a sandbox debit on a magic IBAN that says MD06 is paid and then charged back some days later
 * (docs/providers.md); `chargeback_at` is when, and the `settle-sandbox` job charges it back then.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('sandbox_payments', (t) => {
    t.dateTime('chargeback_at').nullable();
    t.index(['chargeback_at'], 'sandbox_payments_chargeback_index');
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('sandbox_payments', (t) => {
    t.dropIndex(['chargeback_at'], 'sandbox_payments_chargeback_index');
    t.dropColumn('chargeback_at');
  });
}

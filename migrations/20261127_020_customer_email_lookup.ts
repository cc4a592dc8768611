import type { Knex } from 'knex';

/**
 * The store plugin finds a buyer's Customer by e-mail at every checkout (`GET /api/v2/customers?email=`):
 * an index keeps that one lookup from scanning the account's customers.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('customers', (t) => {
    t.index(['account_id', 'email'], 'customers_account_email_index');
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('customers', (t) => {
    t.dropIndex(['account_id', 'email'], 'customers_account_email_index');
  });
}

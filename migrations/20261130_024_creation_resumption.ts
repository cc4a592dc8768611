import type { Knex } from 'knex';

/**
 * Rows whose creation at the provider is not settled (a payment `creating`, a customer without its
 * provider id) are resumed with backoff, and after a rate limit not before the provider's
 * Retry-After: `next_attempt_at` says when the next attempt may start, `create_attempts` how many
 * attempts have not settled it. Rows waiting today may be resumed at once.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('payments', (t) => {
    t.dateTime('next_attempt_at').nullable();
    t.integer('create_attempts').notNullable().defaultTo(0);
    t.index(['status', 'next_attempt_at']);
  });
  await db('payments')
    .where({ status: 'creating' })
    .update({ next_attempt_at: db.ref('updated_at') });
  await db.schema.alterTable('customers', (t) => {
    t.dateTime('next_attempt_at').nullable();
    t.integer('create_attempts').notNullable().defaultTo(0);
    t.index(['provider_customer_id', 'next_attempt_at']);
  });
  await db('customers')
    .whereNull('provider_customer_id')
    .update({ next_attempt_at: db.ref('updated_at') });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('customers', (t) => {
    t.dropIndex(['provider_customer_id', 'next_attempt_at']);
    t.dropColumns('next_attempt_at', 'create_attempts');
  });
  await db.schema.alterTable('payments', (t) => {
    t.dropIndex(['status', 'next_attempt_at']);
    t.dropColumns('next_attempt_at', 'create_attempts');
  });
}

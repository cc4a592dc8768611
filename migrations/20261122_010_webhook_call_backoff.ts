import type { Knex } from 'knex';

/**
 * Provider webhook calls retried with exponential backoff for 26 hours: when each is due next, and
 * when one was given up. The job's query (unprocessed, not given up, due) gets its own index, which
 * replaces the one on (processed_at, received_at) that the old "stale after a minute" query used.
 */
const DUE_INDEX = 'provider_webhook_calls_due_index';

export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('provider_webhook_calls', (t) => {
    t.dateTime('next_attempt_at').nullable();
    t.dateTime('gave_up_at').nullable();
  });
  // Calls still waiting are due at once (also those the old 10-attempt limit had dropped: a late sync is harmless).
  await db('provider_webhook_calls')
    .whereNull('processed_at')
    .update({ next_attempt_at: db.ref('received_at') });
  await db.schema.alterTable('provider_webhook_calls', (t) => {
    t.index(['processed_at', 'gave_up_at', 'next_attempt_at'], DUE_INDEX); // named: the default is too long for MySQL
    t.dropIndex(['processed_at', 'received_at']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('provider_webhook_calls', (t) => {
    t.index(['processed_at', 'received_at']);
    t.dropIndex(['processed_at', 'gave_up_at', 'next_attempt_at'], DUE_INDEX);
  });
  await db.schema.alterTable('provider_webhook_calls', (t) => {
    t.dropColumns('next_attempt_at', 'gave_up_at');
  });
}

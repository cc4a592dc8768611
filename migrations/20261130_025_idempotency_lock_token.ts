import type { Knex } from 'knex';

/**
 * A fencing token on each Idempotency-Key: written when a request claims the key and again when a
 * retry takes it over, and required by every write of the request's outcome. A slow request that
 * lost its key to a take-over can then no longer overwrite the answer of the one holding it now.
 * Rows kept before this have none; a take-over of such a row gives it one.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('idempotency_keys', (t) => {
    t.string('lock_token', 32).nullable();
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('idempotency_keys', (t) => {
    t.dropColumn('lock_token');
  });
}

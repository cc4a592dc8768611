import type { Knex } from 'knex';

/**
 * Idempotency keys are compared byte for byte, as on SQLite: MySQL's default collations would
 * make `ABC` and `abc` one key. The middleware accepts printable ASCII only, so ascii_bin holds all.
 */
export async function up(db: Knex): Promise<void> {
  if (db.client.config.client !== 'mysql2') return;
  await db.raw('ALTER TABLE idempotency_keys MODIFY idempotency_key VARCHAR(255) CHARACTER SET ascii COLLATE ascii_bin NOT NULL');
}

export async function down(db: Knex): Promise<void> {
  if (db.client.config.client !== 'mysql2') return;
  await db.raw('ALTER TABLE idempotency_keys MODIFY idempotency_key VARCHAR(255) CHARACTER SET utf8mb4 NOT NULL');
}

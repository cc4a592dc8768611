import type { Knex } from 'knex';

/**
 * A burst of provider webhook calls is kept with one multi-row insert; each call's row is found
 * again by its receipt (random, unique), since a multi-row insert reports at most the first key.
 * Rows kept before this have none.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('provider_webhook_calls', (t) => {
    t.string('receipt', 32).nullable().unique();
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('provider_webhook_calls', (t) => {
    t.dropUnique(['receipt']);
    t.dropColumn('receipt');
  });
}

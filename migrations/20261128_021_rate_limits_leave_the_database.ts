import type { Knex } from 'knex';

/**
 * Requests are counted in memory, or in Redis with REDIS_URL: a database write per request was the
 * largest cost of a read. The table of counts is no longer used.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.dropTableIfExists('rate_limit_windows');
}

export async function down(db: Knex): Promise<void> {
  await db.schema.createTable('rate_limit_windows', (t) => {
    t.string('token_id', 40).notNullable();
    t.bigInteger('window_start').notNullable(); // unix minute
    t.integer('hits').notNullable();
    t.primary(['token_id', 'window_start']);
  });
}

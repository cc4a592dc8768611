import type { Knex } from 'knex';

/** Provider webhook calls retried with exponential backoff for 26 hours. */
export async function up(_db: Knex): Promise<void> {}

export async function down(_db: Knex): Promise<void> {}

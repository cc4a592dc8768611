import type { Knex } from 'knex';

/** The payment pipeline: payment purpose and creation states, Idempotency-Key locks and the resources they resume. */
export async function up(_db: Knex): Promise<void> {}

export async function down(_db: Knex): Promise<void> {}

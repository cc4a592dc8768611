import type { Knex } from 'knex';

/** The sandbox provider keeps our references, so lost answers can be looked up. */
export async function up(_db: Knex): Promise<void> {}

export async function down(_db: Knex): Promise<void> {}

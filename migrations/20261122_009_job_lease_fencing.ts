import type { Knex } from 'knex';

/**
 * Job leases in database time with a fencing generation: every acquisition counts it up, and
 * renewing or releasing only touches the lease of the generation the holder took, so a holder
 * that lost its lease can never act on its successor's. The lease's times need no change of type:
 * they are now written from the database's clock instead of each instance's.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('job_leases', (t) => {
    t.bigInteger('generation').notNullable().defaultTo(0);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('job_leases', (t) => {
    t.dropColumn('generation');
  });
}

import type { Knex } from 'knex';

/**
 * One payment under way at a time per payment link and per store order, decided by the database:
 * such a payment carries `in_progress_key` (`link-<id>`, `order-<id>`), unique per account, from
 * its insert until it settles (then null). A second one for the same link or order cannot be
 * written while the first is under way. Payments made before this carry none.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('payments', (t) => {
    t.string('in_progress_key', 64).nullable();
    t.unique(['account_id', 'in_progress_key']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('payments', (t) => {
    t.dropUnique(['account_id', 'in_progress_key']);
    t.dropColumn('in_progress_key');
  });
}

import type { Knex } from 'knex';

/**
 * Issue 38: the sandbox settles a recurring charge and a refund by itself a few seconds after making them
 * (the `settle-sandbox` job), where they used to wait for someone to look at them. `settle_at` is when;
 * the charges and refunds pending from before get their creation time, so the job settles them on its
 * first run.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('sandbox_payments', (t) => {
    t.dateTime('settle_at').nullable();
    t.index(['status', 'settle_at'], 'sandbox_payments_settle_index');
  });
  await db.schema.alterTable('sandbox_refunds', (t) => {
    t.dateTime('settle_at').nullable();
    t.index(['status', 'settle_at'], 'sandbox_refunds_settle_index');
  });
  await db('sandbox_payments')
    .where({ status: 'pending', sequence_type: 'recurring' })
    .update({ settle_at: db.ref('created_at') });
  await db('sandbox_refunds')
    .where({ status: 'pending' })
    .update({ settle_at: db.ref('created_at') });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('sandbox_refunds', (t) => {
    t.dropIndex(['status', 'settle_at'], 'sandbox_refunds_settle_index');
    t.dropColumn('settle_at');
  });
  await db.schema.alterTable('sandbox_payments', (t) => {
    t.dropIndex(['status', 'settle_at'], 'sandbox_payments_settle_index');
    t.dropColumn('settle_at');
  });
}

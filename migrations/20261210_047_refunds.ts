import type { Knex } from 'knex';

/**
 * Refunds (issue 25): our row per refund, written before the provider is asked (its key `refund-<id>`
 * derives from it), and on the payment the cents reserved by refunds that are not failed or canceled.
 * The reservation is taken by one conditional update (see refunds/repository.ts), so the database —
 * not a lock in one process — decides that no more goes back than was paid. The sandbox keeps its
 * refunds as Mollie would.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('payments', (t) => {
    t.bigInteger('amount_refund_reserved').notNullable().defaultTo(0);
  });
  await db.schema.createTable('refunds', (t) => {
    t.string('id', 40).primary(); // rfd_…
    t.string('account_id', 40).notNullable().references('accounts.id');
    t.string('payment_id', 40).notNullable();
    t.bigInteger('amount').notNullable();
    t.string('currency', 3).notNullable();
    t.string('description', 191).notNullable();
    // creating (not yet confirmed by the provider), queued, pending, processing, refunded, failed, canceled
    t.string('status', 16).notNullable();
    t.string('provider_refund_id', 64).nullable();
    // What the refund is made for, once (`double-<payment id>`); null for refunds made on request.
    t.string('origin_key', 191).nullable();
    t.integer('create_attempts').notNullable().defaultTo(0);
    t.dateTime('next_attempt_at').nullable();
    t.string('failure_reason', 191).nullable();
    t.dateTime('created_at').notNullable();
    t.dateTime('updated_at').notNullable();
    t.unique(['account_id', 'origin_key']);
    t.index(['account_id', 'payment_id']);
    t.index(['status', 'next_attempt_at']);
  });
  await db.schema.createTable('sandbox_refunds', (t) => {
    t.string('id', 64).primary(); // re_…
    t.string('account_id', 40).notNullable().references('accounts.id');
    t.string('payment_id', 64).notNullable();
    t.bigInteger('amount').notNullable();
    t.string('currency', 3).notNullable();
    t.string('description', 191).notNullable();
    t.string('status', 16).notNullable();
    t.string('reference', 64).nullable();
    t.string('idempotency_key', 255).nullable();
    t.dateTime('created_at').notNullable();
    t.unique(['account_id', 'idempotency_key']);
    t.index(['account_id', 'payment_id']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('sandbox_refunds');
  await db.schema.dropTable('refunds');
  await db.schema.alterTable('payments', (t) => {
    t.dropColumn('amount_refund_reserved');
  });
}

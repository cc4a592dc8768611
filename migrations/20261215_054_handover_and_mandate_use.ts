import type { Knex } from 'knex';

/**
 * Issue 36, items 4 and 5: only our own cancel ends an import's hand-over, and no mandate another
 * biller uses is revoked.
 *
 * - `import_handovers`: per imported source subscription, when we asked its source to stop billing it
 *   (`cancel_requested_at`, committed before the call: a source canceled without it was canceled by
 *   someone else — the customer), and when ours was held for that reason (`held_at`, told once).
 * - `mandates.origin`: how the mandate came to us: `first_payment` (a first payment of ours made it),
 *   `api` (`POST …/mandates`), `import` (an import found it at the provider or made it there). Only a
 *   `first_payment` one is revoked without asking the provider whether another biller uses it; null
 *   (older rows we cannot place) is asked about too. Rows a first payment of ours named are placed.
 * - `mandate_waiting_takeovers`: a takeover whose new mandate is still `pending` moves nothing until the
 *   mandate turns valid (the refresh-mandates job); `moved_at` marks it done, once.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('import_handovers', (t) => {
    t.string('account_id', 40).notNullable().references('id').inTable('accounts');
    t.string('source', 40).notNullable();
    t.string('source_id', 191).notNullable();
    t.string('subscription_id', 40).notNullable();
    t.dateTime('cancel_requested_at').nullable();
    t.dateTime('held_at').nullable();
    t.dateTime('created_at').notNullable();
    t.dateTime('updated_at').notNullable();
    t.primary(['account_id', 'source', 'source_id']);
  });
  await db.schema.alterTable('mandates', (t) => {
    t.string('origin', 16).nullable();
  });
  await db('mandates')
    .whereExists((first) =>
      first
        .select(db.raw('1'))
        .from('payments')
        .whereRaw('payments.account_id = mandates.account_id')
        .whereRaw('payments.provider_mandate_id = mandates.id')
        .where('payments.sequence_type', 'first'),
    )
    .update({ origin: 'first_payment' });
  await db.schema.createTable('mandate_waiting_takeovers', (t) => {
    t.string('account_id', 40).notNullable().references('id').inTable('accounts');
    // `link-<id>` or `order-<id>`: what asked for the takeover, once.
    t.string('origin_key', 64).notNullable();
    t.string('mandate_id', 64).notNullable();
    t.string('customer_id', 40).notNullable();
    t.text('subscription_ids').nullable();
    t.string('link_id', 40).nullable();
    t.string('order_id', 40).nullable();
    t.string('requested_via', 16).nullable();
    t.dateTime('moved_at').nullable();
    t.dateTime('created_at').notNullable();
    t.primary(['account_id', 'origin_key']);
    t.index(['account_id', 'mandate_id', 'moved_at']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('mandate_waiting_takeovers');
  await db.raw('ALTER TABLE ?? DROP COLUMN ??', ['mandates', 'origin']);
  await db.schema.dropTable('import_handovers');
}

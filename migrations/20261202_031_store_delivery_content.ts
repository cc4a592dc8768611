import type { Knex } from 'knex';

/**
 * Store deliveries are deduplicated on their content, not on the store's delivery id: WooCommerce
 * gives every delivery of one webhook within a second the same id, so different changes sent in one
 * batch shared it and all but the first were dropped. `content_key` is what the store's adapter says
 * identifies a delivery's content; `delivery_id` stays for diagnostics. Rows seen before keep their
 * delivery id as their key (they are only history: new keys never look like one).
 *
 * Products and orders keep the store's modification time of the record last applied
 * (`shop_modified_at`, GMT), so a delivery older than that (late, replayed) does not roll them back.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('shop_webhook_deliveries', (t) => {
    t.string('content_key', 191).nullable();
  });
  await db('shop_webhook_deliveries').update({ content_key: db.ref('delivery_id') });
  // The new unique key first: MySQL keeps an index on account_id for its foreign key throughout.
  await db.schema.alterTable('shop_webhook_deliveries', (t) => {
    t.unique(['account_id', 'content_key']);
  });
  await db.schema.alterTable('shop_webhook_deliveries', (t) => {
    t.dropUnique(['account_id', 'delivery_id']);
    t.index(['account_id', 'delivery_id']);
  });
  for (const table of ['products', 'orders']) {
    await db.schema.alterTable(table, (t) => {
      t.dateTime('shop_modified_at').nullable();
    });
  }
}

/** Deliveries that shared a delivery id are kept once: the old key cannot hold them all. */
export async function down(db: Knex): Promise<void> {
  // Natively, not by knex's table copy on SQLite: the copy would lose the tables' numbering triggers (migration 022).
  for (const table of ['products', 'orders']) await db.raw('ALTER TABLE ?? DROP COLUMN ??', [table, 'shop_modified_at']);
  const shared = await db('shop_webhook_deliveries')
    .select('account_id', 'delivery_id')
    .min({ first: 'seq' })
    .groupBy('account_id', 'delivery_id')
    .havingRaw('count(*) > 1');
  for (const { account_id, delivery_id, first } of shared as Array<{ account_id: string; delivery_id: string; first: number }>) {
    await db('shop_webhook_deliveries').where({ account_id, delivery_id }).whereNot('seq', first).delete();
  }
  await db.schema.alterTable('shop_webhook_deliveries', (t) => {
    t.unique(['account_id', 'delivery_id']);
  });
  await db.schema.alterTable('shop_webhook_deliveries', (t) => {
    t.dropIndex(['account_id', 'delivery_id']);
    t.dropUnique(['account_id', 'content_key']);
    t.dropColumn('content_key');
  });
}

import type { Knex } from 'knex';

/**
 * What the service knows of its webhooks in the store, as the store reports them: WooCommerce never
 * retries a failed delivery and disables a webhook after more than 5 failures in a row, so
 * "registered" alone said nothing. `webhooks_pinged_at`: when the store's ping last reached us (the
 * evidence that the store can deliver to PUBLIC_URL); `webhooks_status`: JSON, per topic the
 * webhook's id and the store's status (active, paused, disabled, missing); `webhooks_checked_at`:
 * when that was read from the store.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('shops', (t) => {
    t.dateTime('webhooks_pinged_at').nullable();
    t.text('webhooks_status').nullable();
    t.dateTime('webhooks_checked_at').nullable();
  });
}

export async function down(db: Knex): Promise<void> {
  // Natively, as migration 031 does: knex's table copy on SQLite is not needed for a plain column.
  for (const column of ['webhooks_checked_at', 'webhooks_status', 'webhooks_pinged_at']) {
    await db.raw('ALTER TABLE ?? DROP COLUMN ??', ['shops', column]);
  }
}

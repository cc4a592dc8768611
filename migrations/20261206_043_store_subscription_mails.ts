import type { Knex } from 'knex';

/**
 * Who mails the customer about a subscription's cancellation, pause, resume, skip and change of
 * payment method, and where the store hears of them:
 *
 * - `accounts.portal_mails`: `store` leaves those mails to the store's plugin (WooCommerce's mailer);
 *   null is the default, the service's own portal-* mails.
 * - `shops.callback_url`: the plugin's signed callback for subscription events, sent when the plugin
 *   connects the store; null for a store connected without it (the CLI), which then gets none.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('accounts', (t) => {
    t.string('portal_mails', 16).nullable();
  });
  await db.schema.alterTable('shops', (t) => {
    t.string('callback_url', 2048).nullable();
  });
}

export async function down(db: Knex): Promise<void> {
  // Natively (SQLite 3.35+ and MySQL): knex's table copy on SQLite would rebuild tables others refer to.
  await db.raw('ALTER TABLE ?? DROP COLUMN ??', ['shops', 'callback_url']);
  await db.raw('ALTER TABLE ?? DROP COLUMN ??', ['accounts', 'portal_mails']);
}

import type { Knex } from 'knex';

/**
 * Invoices beyond a subscription's own charge (issue 25): a charge paid by a follow-up (a retry or
 * its link), money charged back and paid again, and — when the account wants them — paid payment
 * links and store orders. A charge keeps one invoice (unique `charge_id`); an invoice that is not a
 * charge's has none and is one per payment instead (`payment_key`: the payment's id, unique; empty on a
 * charge's invoice, as a checkout payment can start several subscriptions, each charge invoiced).
 * `subscription_id` is empty on an invoice of a link or order, which names its `link_id` or `order_id`.
 * A store order keeps the lines the store invoiced (`orders.invoice_lines`: each line's total, tax and
 * VAT rate as the store computed them). `invoice_settings` say whether links
 * and orders are invoiced; `mail_when_paid` (048) now mails each invoice and credit note, its PDF
 * attached at delivery (`outgoing_mails.attachment` names the document).
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('invoices', (t) => {
    t.string('subscription_id', 40).nullable().alter();
    t.string('charge_id', 40).nullable().alter();
  });
  await db.schema.alterTable('invoices', (t) => {
    t.string('link_id', 40).nullable();
    t.string('order_id', 40).nullable();
    t.string('payment_key', 40).nullable().unique();
    // A customer's invoices: the portal's list and the API's customer_id filter.
    t.index(['account_id', 'customer_id', 'created_at']);
  });
  // Invoices from before 048 named no customer; the portal now lists a customer's invoices by it.
  await db('invoices')
    .whereNull('customer_id')
    .update({ customer_id: db('payments').select('customer_id').where('payments.id', db.ref('invoices.payment_id')) });
  await db.schema.alterTable('invoice_settings', (t) => {
    t.boolean('invoice_links').notNullable().defaultTo(false);
    t.boolean('invoice_orders').notNullable().defaultTo(false);
  });
  await db.schema.alterTable('orders', (t) => {
    t.text('invoice_lines').nullable(); // JSON StoreInvoiceLine[]; null when the store did not say
  });
  await db.schema.alterTable('outgoing_mails', (t) => {
    t.string('attachment', 64).nullable(); // `invoice:ivc_…` or `credit_note:crn_…`
  });
}

export async function down(db: Knex): Promise<void> {
  await db.raw('ALTER TABLE ?? DROP COLUMN ??', ['outgoing_mails', 'attachment']);
  await db.raw('ALTER TABLE ?? DROP COLUMN ??', ['orders', 'invoice_lines']);
  for (const column of ['invoice_links', 'invoice_orders']) await db.raw('ALTER TABLE ?? DROP COLUMN ??', ['invoice_settings', column]);
  // Invoices are the books: never dropped to go back. Those without a charge fit the old table only gone.
  const withoutCharge = await db('invoices').whereNull('charge_id').count({ n: '*' }).first();
  if (Number(withoutCharge?.n ?? 0) > 0)
    throw new Error('invoices of links, orders or repaid chargebacks exist: this migration is not undone');
  await db.schema.alterTable('invoices', (t) => {
    t.dropIndex(['account_id', 'customer_id', 'created_at']);
    t.dropUnique(['payment_key']);
  });
  for (const column of ['link_id', 'order_id', 'payment_key']) await db.raw('ALTER TABLE ?? DROP COLUMN ??', ['invoices', column]);
  await db.schema.alterTable('invoices', (t) => {
    t.string('subscription_id', 40).notNullable().alter();
    t.string('charge_id', 40).notNullable().alter();
  });
}

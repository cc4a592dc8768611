import type { Knex } from 'knex';
import type { CreditNoteRow, InvoiceRow } from '../invoices/repository';
import type { MandateRow } from '../mandates/repository';
import type { PaymentRow } from '../payments/repository';
import type { RefundRow } from '../refunds/repository';
import type { SubscriptionRow } from '../subscriptions/repository';

/**
 * What the portal reads of one customer. Every query is scoped by the account and the customer of
 * the session together: an id of another customer or account is simply not found.
 */
export const portalOverviewRepository = {
  /** The customer's subscriptions, newest first. */
  subscriptionsOf: (db: Knex, accountId: string, customerId: string): Promise<SubscriptionRow[]> =>
    db<SubscriptionRow>('subscriptions').where({ account_id: accountId, customer_id: customerId }).orderBy('seq', 'desc'),

  /** One subscription, only when it is this customer's of this account. */
  subscriptionOf: (db: Knex, accountId: string, customerId: string, id: string): Promise<SubscriptionRow | undefined> =>
    db<SubscriptionRow>('subscriptions').where({ account_id: accountId, customer_id: customerId, id }).first(),

  /** The customer's mandates by id (only theirs). */
  mandatesOf: (db: Knex, accountId: string, customerId: string): Promise<MandateRow[]> =>
    db<MandateRow>('mandates').where({ account_id: accountId, customer_id: customerId }),

  /** The customer's latest payments, newest first, whatever they were for. */
  latestPaymentsOf: (db: Knex, accountId: string, customerId: string, limit: number): Promise<PaymentRow[]> =>
    db<PaymentRow>('payments')
      .where({ account_id: accountId, customer_id: customerId })
      .whereNot('status', 'creating')
      .orderBy('seq', 'desc')
      .limit(limit),

  /** The customer's invoices (of subscriptions, links and orders), newest first. */
  latestInvoicesOf: (db: Knex, accountId: string, customerId: string, limit: number): Promise<InvoiceRow[]> =>
    db<InvoiceRow>('invoices')
      .where({ account_id: accountId, customer_id: customerId })
      .orderBy([
        { column: 'created_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ])
      .limit(limit),

  /** The refunds of these payments of the customer, in the order they were made. */
  refundsOfPayments: (db: Knex, accountId: string, customerId: string, paymentIds: string[]): Promise<RefundRow[]> =>
    paymentIds.length
      ? db('refunds as r')
          .join('payments as p', function samePayment() {
            this.on('p.account_id', '=', 'r.account_id').andOn('p.id', '=', 'r.payment_id');
          })
          .where({ 'r.account_id': accountId, 'p.customer_id': customerId })
          .whereIn('r.payment_id', paymentIds)
          // As the API lists them: by when each was made, then its sequence for refunds within one second.
          .orderBy([{ column: 'r.created_at' }, { column: 'r.sequence' }, { column: 'r.id' }])
          .select<RefundRow[]>('r.*')
      : Promise.resolve([]),

  /** The customer's credit notes (through the invoices they credit), newest first, with the number of the invoice credited. */
  latestCreditNotesOf: (
    db: Knex,
    accountId: string,
    customerId: string,
    limit: number,
  ): Promise<Array<CreditNoteRow & { invoice_number: string | null }>> =>
    db('credit_notes as c')
      .join('invoices as i', function creditedInvoice() {
        this.on('i.account_id', '=', 'c.account_id').andOn('i.id', '=', 'c.invoice_id');
      })
      .where({ 'c.account_id': accountId, 'i.customer_id': customerId })
      .orderBy('c.seq', 'desc')
      .limit(limit)
      .select<Array<CreditNoteRow & { invoice_number: string | null }>>('c.*', 'i.number as invoice_number'),

  /** One credit note, only when the invoice it credits is this customer's of this account. */
  creditNoteOf: (db: Knex, accountId: string, customerId: string, id: string): Promise<CreditNoteRow | undefined> =>
    db('credit_notes as c')
      .join('invoices as i', function creditedInvoice() {
        this.on('i.account_id', '=', 'c.account_id').andOn('i.id', '=', 'c.invoice_id');
      })
      .where({ 'c.account_id': accountId, 'i.customer_id': customerId, 'c.id': id })
      .first<CreditNoteRow | undefined>('c.*'),
};

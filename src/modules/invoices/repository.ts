import type { Knex } from 'knex';
import { pageOf } from '../../db/paging';
import type { Page, PageRequest } from '../../paging';
import type { CustomerRow } from '../customers/repository';
import type { PaymentRow } from '../payments/repository';

/** One invoice: the lines of a paid payment (a subscription's charge, a link, a store order). */
export interface InvoiceRow {
  id: string;
  account_id: string;
  /** The subscription whose charge it invoices; null for a link or an order. */
  subscription_id: string | null;
  /** The charge whose period it invoices (one invoice each); null for a link, an order, or money charged back and paid again. */
  charge_id: string | null;
  link_id: string | null;
  order_id: string | null;
  /** The payment's id on an invoice that is not a charge's (unique: one per payment); null on a charge's. */
  payment_key: string | null;
  payment_id: string;
  currency: string;
  lines: string; // JSON InvoiceLine[]
  total_excluding_vat: number;
  total_vat: number;
  total_including_vat: number;
  workflow_id: string | null;
  docstyle_id: string | null;
  bookkeeping_status: 'none' | 'pending' | 'sent' | 'failed';
  bookkeeping_reference: string | null;
  /** Why the invoice did not reach the bookkeeping system (yet); migration 049. */
  bookkeeping_error?: string | null;
  /** The account's invoice number; null while not issued. */
  number: string | null;
  customer_id: string | null;
  /** `not_issued`: its lines did not add up to the amount charged (`not_issued_reason`); it has no number. */
  status: 'issued' | 'not_issued';
  not_issued_reason: string | null;
  /** JSON InvoiceDocument: the snapshot the PDF is drawn from; null on invoices from before numbering. */
  document: string | null;
  created_at: string;
}

/** A credit note: negative amounts correcting an invoice, numbered from the invoices' series. */
export interface CreditNoteRow {
  seq?: number;
  id: string;
  account_id: string;
  invoice_id: string;
  payment_id: string;
  number: string;
  reason: 'refund' | 'chargeback';
  source_key: string;
  currency: string;
  lines: string;
  total_excluding_vat: number;
  total_vat: number;
  total_including_vat: number;
  document: string;
  created_at: string;
}

export interface InvoiceFilters {
  customer_id?: string;
  subscription_id?: string;
  status?: string;
}

const table = (db: Knex) => db<InvoiceRow>('invoices');
const creditNotes = (db: Knex) => db<CreditNoteRow>('credit_notes');

/** The one owner of the `invoices` table, and of the credit notes that correct them. */
export const invoicesRepository = {
  insert: (db: Knex, row: InvoiceRow) => table(db).insert(row),

  find: (db: Knex, accountId: string, id: string): Promise<InvoiceRow | undefined> =>
    table(db).where({ account_id: accountId, id }).first(),

  /** The payment that paid the charge's invoice, when it has one: one per charge. */
  paymentOfChargeInvoice: async (db: Knex, chargeId: string): Promise<string | undefined> =>
    (await table(db).where({ charge_id: chargeId }).first('payment_id'))?.payment_id,

  /** Whether the payment has its own invoice already (one not a charge's): one per payment. */
  existsForPayment: async (db: Knex, paymentId: string): Promise<boolean> =>
    (await table(db).where({ payment_key: paymentId }).first('id')) !== undefined,

  issuedOfPayment: (db: Knex, accountId: string, paymentId: string): Promise<InvoiceRow | undefined> =>
    table(db).where({ account_id: accountId, payment_id: paymentId, status: 'issued' }).first(),

  /** One page of the account's invoices, oldest first. */
  page: (db: Knex, accountId: string, filters: InvoiceFilters, request: PageRequest): Promise<Page<InvoiceRow>> =>
    pageOf<InvoiceRow>(db('invoices').where({ account_id: accountId, ...filters }), request),

  /** One page of a subscription's invoices, oldest first. */
  pageOfSubscription: (db: Knex, accountId: string, subscriptionId: string, request: PageRequest): Promise<Page<InvoiceRow>> =>
    pageOf<InvoiceRow>(db('invoices').where({ account_id: accountId, subscription_id: subscriptionId }), request),

  /** What the bookkeeping outbox learnt of the invoice's way to the account's system. */
  updateBookkeeping: (
    db: Knex,
    id: string,
    changes: Partial<Pick<InvoiceRow, 'bookkeeping_status' | 'bookkeeping_reference' | 'bookkeeping_error'>>,
  ) => table(db).where({ id }).update(changes),

  creditNotesOf: (db: Knex, accountId: string, invoiceIds: string[]): Promise<CreditNoteRow[]> =>
    invoiceIds.length
      ? creditNotes(db).where({ account_id: accountId }).whereIn('invoice_id', invoiceIds).orderBy('seq')
      : Promise.resolve([]),

  findCreditNote: (db: Knex, accountId: string, invoiceId: string, id: string): Promise<CreditNoteRow | undefined> =>
    creditNotes(db).where({ account_id: accountId, invoice_id: invoiceId, id }).first(),

  /** A credit note by its own id (a mail's attachment names it so). */
  creditNoteById: (db: Knex, accountId: string, id: string): Promise<CreditNoteRow | undefined> =>
    creditNotes(db).where({ account_id: accountId, id }).first(),

  creditNoteBySource: (db: Knex, accountId: string, sourceKey: string): Promise<CreditNoteRow | undefined> =>
    creditNotes(db).where({ account_id: accountId, source_key: sourceKey }).first(),

  insertCreditNote: (db: Knex, row: CreditNoteRow) => db('credit_notes').insert(row),

  /** The payment's refunds that went through (each credited once, by `refund-<id>`). */
  refundedOfPayment: (db: Knex, accountId: string, paymentId: string): Promise<Array<{ id: string; amount: number | string }>> =>
    db('refunds').where({ account_id: accountId, payment_id: paymentId, status: 'refunded' }).orderBy('id').select('id', 'amount'),

  /** The payment and customer a document names, and its seller: read as they are when it is made. */
  paymentOf: (db: Knex, accountId: string, id: string): Promise<PaymentRow | undefined> =>
    db<PaymentRow>('payments').where({ account_id: accountId, id }).first(),

  customerOf: (db: Knex, accountId: string, id: string): Promise<CustomerRow | undefined> =>
    db<CustomerRow>('customers').where({ account_id: accountId, id }).first(),

  sellerOf: (db: Knex, accountId: string) =>
    db('accounts')
      .where({ id: accountId })
      .first<{ name: string; display_name: string | null; contact_email: string | null } | undefined>(
        'name',
        'display_name',
        'contact_email',
      ),
};

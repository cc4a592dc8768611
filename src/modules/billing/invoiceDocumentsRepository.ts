import type { Knex } from 'knex';
import { pageOf } from '../../db/paging';
import type { Page, PageRequest } from '../../paging';
import type { CustomerRow } from '../customers/repository';
import type { PaymentRow } from '../payments/repository';
import type { InvoiceRow } from './invoicesRepository';

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

/** What invoices and credit notes read: the issued documents, and the seller, buyer and payment they name. */
export const invoiceDocumentsRepository = {
  findInvoice: (db: Knex, accountId: string, id: string): Promise<InvoiceRow | undefined> =>
    db<InvoiceRow>('invoices').where({ account_id: accountId, id }).first(),

  issuedInvoiceOfPayment: (db: Knex, accountId: string, paymentId: string): Promise<InvoiceRow | undefined> =>
    db<InvoiceRow>('invoices').where({ account_id: accountId, payment_id: paymentId, status: 'issued' }).first(),

  pageOfInvoices: (db: Knex, accountId: string, filters: InvoiceFilters, request: PageRequest): Promise<Page<InvoiceRow>> =>
    pageOf<InvoiceRow>(db('invoices').where({ account_id: accountId, ...filters }), request),

  creditNotesOf: (db: Knex, accountId: string, invoiceIds: string[]): Promise<CreditNoteRow[]> =>
    invoiceIds.length
      ? db<CreditNoteRow>('credit_notes').where({ account_id: accountId }).whereIn('invoice_id', invoiceIds).orderBy('seq')
      : Promise.resolve([]),

  findCreditNote: (db: Knex, accountId: string, invoiceId: string, id: string): Promise<CreditNoteRow | undefined> =>
    db<CreditNoteRow>('credit_notes').where({ account_id: accountId, invoice_id: invoiceId, id }).first(),

  /** A credit note by its own id (a mail's attachment names it so). */
  creditNoteById: (db: Knex, accountId: string, id: string): Promise<CreditNoteRow | undefined> =>
    db<CreditNoteRow>('credit_notes').where({ account_id: accountId, id }).first(),

  creditNoteBySource: (db: Knex, accountId: string, sourceKey: string): Promise<CreditNoteRow | undefined> =>
    db<CreditNoteRow>('credit_notes').where({ account_id: accountId, source_key: sourceKey }).first(),

  insertCreditNote: (db: Knex, row: CreditNoteRow) => db('credit_notes').insert(row),

  /** The payment's refunds that went through (each credited once, by `refund-<id>`). */
  refundedOfPayment: (db: Knex, accountId: string, paymentId: string): Promise<Array<{ id: string; amount: number | string }>> =>
    db('refunds').where({ account_id: accountId, payment_id: paymentId, status: 'refunded' }).orderBy('id').select('id', 'amount'),

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

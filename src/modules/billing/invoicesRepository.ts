import type { Knex } from 'knex';
import { pageOf } from '../../db/paging';
import type { Page, PageRequest } from '../../paging';

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

const table = (db: Knex) => db<InvoiceRow>('invoices');

export const invoicesRepository = {
  insert: (db: Knex, row: InvoiceRow) => table(db).insert(row),

  /** The payment that paid the charge's invoice, when it has one: one per charge. */
  paymentOfChargeInvoice: async (db: Knex, chargeId: string): Promise<string | undefined> =>
    (await table(db).where({ charge_id: chargeId }).first('payment_id'))?.payment_id,

  /** Whether the payment has its own invoice already (one not a charge's): one per payment. */
  existsForPayment: async (db: Knex, paymentId: string): Promise<boolean> =>
    (await table(db).where({ payment_key: paymentId }).first('id')) !== undefined,

  /** One page of a subscription's invoices, oldest first. */
  pageOfSubscription: (db: Knex, accountId: string, subscriptionId: string, request: PageRequest): Promise<Page<InvoiceRow>> =>
    pageOf<InvoiceRow>(db('invoices').where({ account_id: accountId, subscription_id: subscriptionId }), request),
};

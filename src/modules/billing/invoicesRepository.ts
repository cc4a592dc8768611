import type { Knex } from 'knex';
import { pageOf } from '../../db/paging';
import type { Page, PageRequest } from '../../paging';

/** One invoice record: the lines of a paid charge, for the account's bookkeeping system. */
export interface InvoiceRow {
  id: string;
  account_id: string;
  subscription_id: string;
  charge_id: string;
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

  /** Whether the charge has its invoice already: one per charge. */
  existsForCharge: async (db: Knex, chargeId: string): Promise<boolean> =>
    (await table(db).where({ charge_id: chargeId }).first('id')) !== undefined,

  /** One page of a subscription's invoices, oldest first. */
  pageOfSubscription: (db: Knex, accountId: string, subscriptionId: string, request: PageRequest): Promise<Page<InvoiceRow>> =>
    pageOf<InvoiceRow>(db('invoices').where({ account_id: accountId, subscription_id: subscriptionId }), request),
};

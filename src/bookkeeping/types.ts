import type { InvoiceLine } from '../modules/invoices/issuing';
import type { InvoiceRow } from '../modules/invoices/repository';

/** A credit invoice: the lines of an invoice credited (positive amounts, as on the invoice) after a refund or a chargeback. */
export interface CreditInvoice {
  /** Our reference for it at the system, unique: the refund's or credit note's id. */
  reference: string;
  invoice: InvoiceRow;
  lines: InvoiceLine[];
  reason: 'refund' | 'chargeback';
  /** UTC `YYYY-MM-DD HH:MM:SS`: when the money went back. */
  date: string;
  /**
   * The lines are VAT-inclusive amounts (part of an invoice given back): sent as such, so that the system's total
   * is exactly what went back, with no VAT recomputed per line from a rounded net price.
   */
  pricesInclTax?: boolean;
}

/**
 * A bookkeeping system that receives the invoices of paid charges and the credit invoices of refunds
 * and chargebacks. An account names its system with `cli accounts set-bookkeeping`; documents reach a
 * system through the bookkeeping outbox (src/bookkeeping/outbox.ts), which calls these. Moneybird is
 * the one adapter (src/bookkeeping/moneybird/); an account with another system name keeps its
 * invoices `pending`.
 */
export interface BookkeepingSystem {
  readonly name: string;
  /**
   * Creates the invoice in the system (and registers its payment); answers its reference there.
   * Idempotent on `invoice.id`: with `mayExist` (an earlier attempt's answer was lost) it first looks
   * the invoice up by our reference and finishes that one.
   */
  sendInvoice(invoice: InvoiceRow, options?: { mayExist?: boolean }): Promise<{ reference: string }>;
  /** The same for a credit invoice, idempotent on `credit.reference`. */
  sendCreditInvoice(credit: CreditInvoice, options?: { mayExist?: boolean }): Promise<{ reference: string }>;
}

/** The system refused the document for a reason a retry does not change (an unknown ledger account, no matching VAT rate). */
export class BookkeepingRefusal extends Error {}

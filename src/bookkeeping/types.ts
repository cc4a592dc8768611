/**
 * What a bookkeeping system is given: an invoice of ours as the invoices module stores it (its row's fields that a
 * system reads), its lines, and the customer it bills. Declared here, not imported from the module, so that an
 * adapter depends on nothing above it (bookkeeping systems are adapters, like payment providers): the module's
 * InvoiceRow and InvoiceLine fit these shapes, and the module looks up the customer for the system.
 */
export interface BookkeepingLine {
  quantity: number;
  description: string;
  /** Cents per unit, excluding VAT. */
  amount: number;
  /** Percentage. */
  vat: string | null;
  ledger_account_id: string | null;
  total_excluding_vat: number;
  total_vat: number;
  total_including_vat: number;
}

export interface BookkeepingInvoice {
  id: string;
  account_id: string;
  subscription_id: string | null;
  customer_id: string | null;
  payment_id: string;
  currency: string;
  /** JSON BookkeepingLine[]. */
  lines: string;
  total_including_vat: number;
  workflow_id: string | null;
  docstyle_id: string | null;
  /** UTC `YYYY-MM-DD HH:MM:SS`. */
  created_at: string;
  /** Whom the invoice bills, as the invoices module found them when it handed the invoice over. */
  billTo: BookkeepingBillTo;
}

/** The customer of ours a document bills: what a system needs to make its own contact of them. */
export interface BookkeepingCustomer {
  /** Our customer id: how the system finds the contact it made of them before. */
  id: string;
  organization_name: string | null;
  first_name: string;
  last_name: string;
  email: string;
  address: string | null;
  postal_code: string | null;
  city: string | null;
  country: string | null;
}

/**
 * The customer an invoice bills: the customer of the invoice's subscription. When the subscription or the customer
 * is gone, the invoices module says so in `gone`, and a system throws it only where it needs what is missing (a
 * system that remembers the contact of `customerId` still books the document): a refusal, as a retry finds nothing
 * more.
 */
export type BookkeepingBillTo =
  | { customerId: string; customer: BookkeepingCustomer }
  /** The customer is gone. */
  | { customerId: string; customer: null; gone: BookkeepingRefusal }
  /** The subscription that names the customer is gone: not even their id is known. */
  | { customerId: null; customer: null; gone: BookkeepingRefusal };

/** A credit invoice: the lines of an invoice credited (positive amounts, as on the invoice) after a refund or a chargeback. */
export interface CreditInvoice {
  /** Our reference for it at the system, unique: the refund's or credit note's id. */
  reference: string;
  invoice: BookkeepingInvoice;
  lines: BookkeepingLine[];
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
 * A bookkeeping system, opened for one account, that receives the invoices of paid charges and the credit
 * invoices of refunds and chargebacks. Documents reach it through the bookkeeping outbox of the invoices module
 * (modules/invoices/bookkeepingOutbox.ts), which calls these.
 */
export interface BookkeepingSystem {
  readonly name: string;
  /**
   * Creates the invoice in the system (and registers its payment); answers its reference there.
   * Idempotent on `invoice.id`: with `mayExist` (an earlier attempt's answer was lost) it first looks
   * the invoice up by our reference and finishes that one.
   */
  sendInvoice(invoice: BookkeepingInvoice, options?: { mayExist?: boolean }): Promise<{ reference: string }>;
  /** The same for a credit invoice, idempotent on `credit.reference`. */
  sendCreditInvoice(credit: CreditInvoice, options?: { mayExist?: boolean }): Promise<{ reference: string }>;
}

/** The system refused the document for a reason a retry does not change (an unknown ledger account, no matching VAT rate). */
export class BookkeepingRefusal extends Error {}

/**
 * A call to the system failed. `retryable`: the same call may succeed later (the system was down, busy, or its
 * answer was lost); `retryAfterSeconds`: how long the system asked us to wait, when it said.
 */
export class BookkeepingCallError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
    readonly retryAfterSeconds: number | null = null,
  ) {
    super(message);
  }
}

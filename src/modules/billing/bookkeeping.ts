import type { InvoiceRow } from './invoices';

/**
 * A bookkeeping system that receives the invoices of paid charges. The Moneybird adapter plugs in
 * here: it needs the subscription's `workflow_id` and `docstyle_id` and each line's
 * `ledger_account_id`, which invoices keep for it. An account names its system with
 * `cli accounts set-bookkeeping --system <name>`; until an adapter for that name exists, its
 * invoices wait as `pending` and nothing is sent anywhere.
 */
export interface BookkeepingSystem {
  readonly name: string;
  /** Creates the invoice in the system; answers its reference there. Must be idempotent on `invoice.id`. */
  sendInvoice(invoice: InvoiceRow): Promise<{ reference: string }>;
}

const SYSTEMS = new Map<string, BookkeepingSystem>();

/** The adapter for an account's bookkeeping system, or undefined when none is installed under that name. */
export function bookkeepingSystem(name: string): BookkeepingSystem | undefined {
  return SYSTEMS.get(name.toLowerCase());
}

import type { InvoiceRow } from './invoicesRepository';

/**
 * A bookkeeping system that receives the invoices of paid charges. The Moneybird adapter plugs in
 * here: it needs the subscription's `workflow_id` and `docstyle_id` and each line's
 * `ledger_account_id`, which invoices keep for it. An account names its system with
 * `cli accounts set-bookkeeping --system <name>`; until an adapter exists (none does yet), its
 * invoices wait as `pending` and nothing is sent anywhere. An adapter and the job that sends pending
 * invoices arrive together.
 */
export interface BookkeepingSystem {
  readonly name: string;
  /** Creates the invoice in the system; answers its reference there. Must be idempotent on `invoice.id`. */
  sendInvoice(invoice: InvoiceRow): Promise<{ reference: string }>;
}

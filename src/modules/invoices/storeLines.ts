import type { StoreInvoiceLine } from '../../integrations/records';
import type { InvoiceLine } from './document';

/**
 * The store's lines as invoice lines, one rule for all: a store order's own invoice (paymentInvoices.ts)
 * and the invoice rules of the subscriptions it starts (store/renewalInvoiceRules.ts) read the store's
 * lines the same way — its amounts without tax, its tax, and the rate its tax lines name.
 */

/** A store line as an invoice line: the store's totals and tax as it computed them. */
export function storeLine(line: StoreInvoiceLine): InvoiceLine {
  return {
    quantity: line.quantity,
    description: line.description,
    amount: line.quantity ? Math.round(line.totalExcludingTax / line.quantity) : line.totalExcludingTax,
    vat: line.vatRate,
    ledger_account_id: null,
    total_excluding_vat: line.totalExcludingTax,
    total_vat: line.tax,
    total_including_vat: line.totalExcludingTax + line.tax,
  };
}

/** Why the store's lines cannot be invoiced: a line taxed at a rate the store did not name is not guessed. Null: they can. */
export function unnamedRateRefusal(lines: readonly StoreInvoiceLine[]): string | null {
  const unknownRate = lines.find((line) => line.tax !== 0 && line.vatRate === null);
  return unknownRate ? `The store did not say the VAT rate of "${unknownRate.description}"` : null;
}

import { STORE_SUBSCRIPTIONS_IMPORT } from '../../integrations';
import type { StoreSubscription } from '../../integrations/records';
import { formatCents } from '../../money';
import { invoicedFromTaxed, type ImportInvoicing, type TaxedPart } from './importVat';

/**
 * How a subscription of the store's subscriptions extension taken over is invoiced: at the VAT the
 * store charges on it. Per line when the store says each line's tax (the rest of its total — shipping, fees — as one
 * more rule at its own rate); else its `total` and `total_tax` at the one rate they give. A
 * subscription whose tax fits no rate (lines at several rates the store did not list) is invoiced
 * by none: its invoices are not issued, and say why.
 */
export function storeSubscriptionInvoicing(
  theirs: Pick<StoreSubscription, 'shopSubscriptionId' | 'amountCents' | 'taxCents' | 'lines'>,
): ImportInvoicing {
  const whole: TaxedPart = {
    description: `${STORE_SUBSCRIPTIONS_IMPORT.subscriptionLabel} #${theirs.shopSubscriptionId}`,
    quantity: 1,
    gross: theirs.amountCents,
    tax: theirs.taxCents,
  };
  if (theirs.lines.length && theirs.lines.every((line) => line.tax !== undefined)) {
    const parts: TaxedPart[] = theirs.lines.map((line) => ({
      description: line.name || `Product ${line.shopProductId}`,
      quantity: line.quantity,
      gross: line.amount,
      tax: line.tax ?? 0,
    }));
    const rest = { gross: theirs.amountCents, tax: theirs.taxCents };
    for (const part of parts) {
      rest.gross -= part.gross;
      rest.tax -= part.tax;
    }
    if (rest.gross !== 0 || rest.tax !== 0) parts.push({ description: 'Shipping and fees', quantity: 1, ...rest });
    const perLine = invoicedFromTaxed(parts);
    if (perLine) return perLine;
  }
  return (
    invoicedFromTaxed([whole]) ?? {
      refusal:
        `The store's subscription charges ${formatCents(theirs.taxCents)} VAT on ${formatCents(theirs.amountCents)}: ` +
        'no one VAT rate gives it, and its lines do not say theirs',
    }
  );
}

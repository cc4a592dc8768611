import type { StoreInvoiceLine } from '../../integrations/records';
import { centsOfSum } from '../../money/decimalSum';
import { storeLine, unnamedRateRefusal } from '../invoices/storeLines';
import type { OrderLineRow, OrderRow } from '../orders/repository';
import type { InvoiceRuleInput } from '../subscriptions/requestSchemas';
import { shippingLinesOf } from './renewalAmounts';

/** A renewal's invoice rules, or why its VAT cannot be derived (its invoices are then not issued, saying so). */
export type RenewalInvoicing = { rules: InvoiceRuleInput[] } | { refusal: string };

/**
 * A store line as an invoice rule: its amount without tax, its rate and the tax the store charged on
 * the whole line (a store with prices entered with tax rounds it from the gross: 10.00 at 21 % is
 * 8.26 + 1.74, where 21 % of 8.26 would be 1.73). Per unit when the quantity divides the amount, else
 * one rule for the whole line (`2 × …`): the rule's lines must add up to the charge.
 */
function ruleOf(line: StoreInvoiceLine): InvoiceRuleInput {
  const invoiced = storeLine(line);
  const perUnit = invoiced.amount * invoiced.quantity === invoiced.total_excluding_vat;
  return perUnit
    ? {
        quantity: invoiced.quantity,
        description: invoiced.description,
        amount: invoiced.amount,
        vat: invoiced.vat,
        vat_amount: invoiced.total_vat,
      }
    : {
        quantity: 1,
        description: `${invoiced.quantity} × ${invoiced.description}`.slice(0, 191),
        amount: invoiced.total_excluding_vat,
        vat: invoiced.vat,
        vat_amount: invoiced.total_vat,
      };
}

/**
 * What each renewal of these lines of `order` is invoiced as: the same lines the renewal charges
 * (renewalAmounts.ts: each line's subtotal with its tax, and the order's shipping when it carries it),
 * at the VAT rate the store taxed each at (its tax lines) — read as the order's own invoice reads the
 * store's lines (invoices/storeLines.ts). A line taxed at a rate the store did not name (or an
 * order synced before the rates were kept) is not guessed: the refusal says which.
 */
export function renewalInvoicing(
  order: Pick<OrderRow, 'shipping_lines'>,
  lines: ReadonlyArray<Pick<OrderLineRow, 'amount' | 'quantity' | 'shop_subtotal' | 'vat_rate'> & { name: string }>,
  withShipping: boolean,
): RenewalInvoicing {
  const storeLines: StoreInvoiceLine[] = [];
  for (const line of lines) {
    const net = line.shop_subtotal === null || line.shop_subtotal === undefined ? null : centsOfSum(line.shop_subtotal);
    if (net === null || line.amount === null || line.amount === undefined) {
      return { refusal: `The store did not say what "${line.name}" cost without VAT` };
    }
    const quantity = Number(line.quantity);
    storeLines.push({
      description: line.name,
      quantity,
      totalExcludingTax: net,
      tax: Number(line.amount) - net,
      vatRate: line.vat_rate ?? null,
    });
  }
  if (withShipping) {
    for (const shipping of shippingLinesOf(order)) {
      const net = centsOfSum(shipping.total);
      if (net === null) return { refusal: `The store did not say what "${shipping.methodTitle}" cost without VAT` };
      storeLines.push({
        description: shipping.methodTitle || shipping.methodId,
        quantity: 1,
        totalExcludingTax: net,
        tax: shipping.amount - net,
        vatRate: shipping.vatRate ?? null,
      });
    }
  }
  const refusal = unnamedRateRefusal(storeLines);
  return refusal ? { refusal } : { rules: storeLines.map(ruleOf) };
}

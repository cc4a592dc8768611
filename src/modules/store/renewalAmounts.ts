import type { StoreShippingLine } from '../../integrations/records';
import { formatCents } from '../../money';
import type { OrderLineRow, OrderRow } from '../orders/repository';
import type { ProductRow } from '../products/repository';

/**
 * What a renewal charges: what the buyer bought on the first order, never the catalogue price. Per
 * line the store's subtotal with its tax (before one-time coupons, which apply to the first order
 * only), and the order's shipping (with tax) once, on the subscription of its first subscription
 * line that ships (not virtual): what is shipped is shipped again, a download is not.
 */

export function shippingLinesOf(order: Pick<OrderRow, 'shipping_lines'>): StoreShippingLine[] {
  if (!order.shipping_lines) return [];
  return JSON.parse(order.shipping_lines) as StoreShippingLine[];
}

/** Whether a product is shipped: not virtual in the store; one not known to be virtual is taken as shipped. */
export const ships = (product: Pick<ProductRow, 'shipped'> | undefined): boolean => Number(product?.shipped ?? 1) !== 0;

/**
 * Whether `subscriptionId` carries the order's shipping: the subscription of its first line that
 * became one and ships (`products` by our product id).
 */
export function carriesShipping(
  orderLines: readonly OrderLineRow[],
  products: ReadonlyMap<string, Pick<ProductRow, 'shipped'>>,
  subscriptionId: string,
): boolean {
  const first = [...orderLines]
    .sort((a, b) => a.position - b.position)
    .find((line) => line.subscription_id !== null && ships(products.get(line.product_id)));
  return first?.subscription_id === subscriptionId;
}

export type DerivedAmount = { amount: number } | { refusal: string };

/** The amount per period of these lines of `order` (with its shipping when `withShipping`), or why it cannot be derived. */
export function renewalAmount(
  order: Pick<OrderRow, 'shipping_lines'>,
  lines: ReadonlyArray<Pick<OrderLineRow, 'amount' | 'quantity'> & { name: string }>,
  withShipping: boolean,
): DerivedAmount {
  let amount = 0;
  for (const line of lines) {
    if (line.amount === null || line.amount === undefined) {
      return { refusal: `the store's order does not say what "${line.name}" cost (its line has no subtotal and subtotal tax).` };
    }
    amount += Number(line.amount);
  }
  if (withShipping) for (const shipping of shippingLinesOf(order)) amount += shipping.amount;
  if (amount <= 0)
    return { refusal: `its subscription products cost ${formatCents(amount)} on the store's order: there is nothing to charge.` };
  return { amount };
}

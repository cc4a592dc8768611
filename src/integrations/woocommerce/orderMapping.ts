import { centsFromDecimalString } from '../../money';
import type { StoreInvoiceLine, StoreOrder, StoreOrderStatus } from '../records';
import { storeModifiedAt } from './modified';
import { centsOfSum } from '../../money/decimalSum';
import type { WooOrder } from './schemas';

/**
 * WooCommerce order statuses as ours. `pending` and `failed` orders can still be paid (unpaid);
 * `on-hold` waits for a payment to clear (pending); `processing` is paid; refunds and trash end it.
 * `checkout-draft` is the Checkout block's cart, not an order yet: it becomes `pending` when the buyer
 * places it (before any payment is asked), and many are abandoned.
 */
const STATUS: Record<string, StoreOrderStatus> = {
  'checkout-draft': 'draft',
  pending: 'unpaid',
  failed: 'unpaid',
  'on-hold': 'pending',
  processing: 'paid',
  completed: 'completed',
  cancelled: 'cancelled',
  refunded: 'cancelled',
  trash: 'cancelled',
};

/**
 * The statuses the order sync asks for: WooCommerce's order list leaves trashed orders out unless
 * asked for by status, and a trashed first order ends its subscriptions. Checkout drafts are not
 * asked for: they are not orders yet.
 */
export const SYNCED_ORDER_STATUSES = Object.keys(STATUS)
  .filter((status) => STATUS[status] !== 'draft')
  .join(',');

const text = (value: string | undefined, max = 191): string | null => {
  const trimmed = (value ?? '').trim();
  return trimmed ? trimmed.slice(0, max) : null;
};

/** The meta key under which the service writes its own order id on an order it makes in the store. */
export const SERVICE_ORDER_ID_META = '_rps_order_id';

/**
 * On a checkout order of WooCommerce Subscriptions' products paid with our gateway: which of the
 * extension's subscriptions holds which line, `{"<line item id>": <subscription id>}` as JSON (the
 * plugin writes it when the extension creates its subscriptions, before the order is paid).
 */
export const WCS_LINES_META = '_rps_wcs_lines';

/** The extension's subscription of each line item id; empty when the order has none (or an unreadable value). */
function wcsLinesOf(order: WooOrder): Map<number, number> {
  const raw = order.meta_data.find((meta) => meta.key === WCS_LINES_META)?.value;
  let value: unknown = raw;
  if (typeof raw === 'string') {
    try {
      value = JSON.parse(raw);
    } catch {
      return new Map();
    }
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) return new Map();
  const lines = new Map<number, number>();
  for (const [itemId, subscriptionId] of Object.entries(value as Record<string, unknown>)) {
    const item = Number(itemId);
    const subscription = Number(subscriptionId);
    if (Number.isSafeInteger(item) && item > 0 && Number.isSafeInteger(subscription) && subscription > 0) lines.set(item, subscription);
  }
  return lines;
}

function serviceOrderIdOf(order: WooOrder): string | null {
  const value = order.meta_data.find((meta) => meta.key === SERVICE_ORDER_ID_META)?.value;
  return typeof value === 'string' && /^ord_[A-Za-z0-9]{1,36}$/.test(value) ? value : null;
}

type LineTaxes = WooOrder['line_items'][number]['taxes'];

/**
 * The VAT percentage of a line: the sum of the rates its taxes name (a compound tax adds up), as the
 * order's tax lines give them. Null for a line taxed by none, or by a rate the order does not describe.
 */
function vatRateOf(taxes: LineTaxes, rates: ReadonlyMap<number, number>): string | null {
  // A tax a coupon took to 0 on this order still names the line's rate (its subtotal): renewals charge it again.
  const applied = taxes.filter((tax) =>
    [tax.total, tax.subtotal].some((part) => part !== undefined && String(part).trim() !== '' && Number(part) !== 0),
  );
  if (!applied.length) return null;
  let percent = 0;
  for (const tax of applied) {
    const rate = rates.get(tax.id);
    if (rate === undefined) return null;
    percent += rate;
  }
  return String(Number(percent.toFixed(4)));
}

/**
 * What the store invoiced, line by line: items (after discounts), shipping and fees with the tax the
 * store computed and its rate. Empty when an amount cannot be read: the order is then invoiced as one
 * line of its total.
 */
/** The order's tax rates by id, as its tax lines give them. */
const ratesOf = (order: WooOrder): Map<number, number> =>
  new Map(order.tax_lines.flatMap((line) => (line.rate_percent === undefined ? [] : [[line.rate_id, line.rate_percent]])));

function invoiceLinesOf(order: WooOrder): StoreInvoiceLine[] {
  const rates = ratesOf(order);
  const lines: Array<{ description: string; quantity: number; total: string; total_tax: string; taxes: LineTaxes }> = [
    ...order.line_items.map((line) => ({ ...line, description: line.name })),
    ...order.shipping_lines.map((line) => ({ ...line, description: line.method_title, quantity: 1 })),
    ...order.fee_lines.map((line) => ({ ...line, description: line.name, quantity: 1 })),
  ];
  const mapped: StoreInvoiceLine[] = [];
  for (const line of lines) {
    const totalExcludingTax = centsOfSum(line.total);
    const tax = centsOfSum(line.total_tax);
    if (totalExcludingTax === null || tax === null) return [];
    mapped.push({
      description: line.description.slice(0, 191),
      quantity: line.quantity,
      totalExcludingTax,
      tax,
      vatRate: vatRateOf(line.taxes, rates),
    });
  }
  return mapped;
}

/** Throws an Error naming what is wrong; the sync records it against the order and goes on. */
export function mapOrder(order: WooOrder): StoreOrder {
  const status = STATUS[order.status];
  if (!status) throw new Error(`status "${order.status}" is not one WooCommerce has`);
  const totalAmount = centsFromDecimalString(order.total);
  if (totalAmount === null) throw new Error(`total "${order.total}" is not an amount`);
  const billing = order.billing;
  const street = [billing.address_1, billing.address_2]
    .map((part) => (part ?? '').trim())
    .filter(Boolean)
    .join(' ');
  const country = text(billing.country, 2);
  const wcsLines = wcsLinesOf(order);
  const rates = ratesOf(order);
  return {
    shopOrderId: order.id,
    shopOrderNumber: order.number.slice(0, 64),
    status,
    totalAmount,
    currency: order.currency.toUpperCase(),
    firstName: text(billing.first_name),
    lastName: text(billing.last_name),
    email: text(billing.email),
    organizationName: text(billing.company),
    phone: text(billing.phone),
    address: text(street),
    postalCode: text(billing.postcode),
    city: text(billing.city),
    country: country && country.length === 2 ? country.toUpperCase() : null,
    serviceOrderId: serviceOrderIdOf(order),
    // The bought product is the variation when the line has one (variations are products of their own
    // here, at their own price); a product deleted in the store leaves id 0.
    lines: order.line_items
      .filter((line) => line.variation_id > 0 || line.product_id > 0)
      .map((line) => ({
        shopProductId: line.variation_id > 0 ? line.variation_id : line.product_id,
        parentShopProductId: line.variation_id > 0 && line.product_id > 0 ? line.product_id : null,
        quantity: line.quantity,
        amount: line.subtotal === undefined || line.subtotal_tax === undefined ? null : centsOfSum(line.subtotal, line.subtotal_tax),
        subtotal: line.subtotal !== undefined && centsOfSum(line.subtotal) !== null ? line.subtotal.trim() : null,
        shopSubscriptionId: wcsLines.get(line.id) ?? null,
        vatRate: vatRateOf(line.taxes, rates),
      })),
    paymentMethod: text(order.payment_method),
    paymentMethodTitle: text(order.payment_method_title),
    shippingLines: order.shipping_lines.flatMap((line) => {
      const amount = centsOfSum(line.total, line.total_tax);
      if (amount === null) throw new Error(`shipping total "${line.total}" is not an amount`);
      const vatRate = vatRateOf(line.taxes, rates);
      return [
        { methodId: line.method_id.slice(0, 191), methodTitle: line.method_title.slice(0, 191), total: line.total.trim(), amount, vatRate },
      ];
    }),
    invoiceLines: invoiceLinesOf(order),
    createdAt: storeModifiedAt(order.date_created_gmt),
    modifiedAt: storeModifiedAt(order.date_modified_gmt),
  };
}

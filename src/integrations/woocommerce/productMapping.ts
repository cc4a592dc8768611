import { centsFromDecimalString } from '../../money';
import type { IntervalUnit } from '../../time/calendar';
import type { StoreProduct } from '../records';
import { storeModifiedAt } from './modified';
import type { WooProduct } from './schemas';

const PERIODS: ReadonlySet<string> = new Set(['day', 'week', 'month', 'year']);

/** The flag the plugin sets on a store's shipping-costs product (Products → edit → "Shipping costs for recurring orders"). */
export const SHIPPING_FLAG = '_rps_shipping_costs';

function meta(product: WooProduct, key: string): unknown {
  return product.meta_data.find((entry) => entry.key === key)?.value;
}

const metaText = (product: WooProduct, key: string): string | null => {
  const value = meta(product, key);
  return value === undefined || value === null || value === '' ? null : String(value);
};

/** Throws an Error naming what is wrong; the sync records it against the product and goes on. */
export function mapProduct(product: WooProduct): StoreProduct {
  const period = metaText(product, '_subscription_period');
  const subscription = product.type === 'subscription' || product.type === 'variable-subscription' || period !== null;
  const priceText = (subscription ? metaText(product, '_subscription_price') : null) ?? (product.price || product.regular_price || '0');
  const amount = centsFromDecimalString(priceText);
  if (amount === null || amount < 0) throw new Error(`price "${priceText}" is not an amount`);
  const base = {
    shopProductId: product.id,
    name: product.name.trim().slice(0, 191) || `Product ${product.id}`,
    amount,
    deleted: product.status === 'trash',
    modifiedAt: storeModifiedAt(product.date_modified_gmt),
  };
  if (['yes', '1', 'true'].includes(String(meta(product, SHIPPING_FLAG) ?? '').toLowerCase())) {
    return { ...base, type: 'shipping_costs', interval: null, intervalValue: null, times: null };
  }
  if (!subscription) return { ...base, type: 'once', interval: null, intervalValue: null, times: null };
  if (!period || !PERIODS.has(period)) throw new Error(`_subscription_period "${period ?? ''}" is not day, week, month or year`);
  const every = Number(metaText(product, '_subscription_period_interval') ?? '1');
  if (!Number.isInteger(every) || every < 1) throw new Error(`_subscription_period_interval "${every}" is not a whole number ≥ 1`);
  // _subscription_length counts periods (12 months); 0 or absent runs until cancelled. WooCommerce
  // Subscriptions ends a subscription that many periods after its start and charges at the start (the
  // checkout) and every `every` periods before the end: ceil(length / every) payments in all, the
  // checkout's included — which is what `times` means here (the checkout is charge 1).
  const length = Number(metaText(product, '_subscription_length') ?? '0');
  if (!Number.isInteger(length) || length < 0) throw new Error(`_subscription_length "${length}" is not a whole number`);
  return {
    ...base,
    type: 'subscription',
    interval: period as IntervalUnit,
    intervalValue: every,
    times: length === 0 ? null : Math.max(1, Math.ceil(length / every)),
  };
}

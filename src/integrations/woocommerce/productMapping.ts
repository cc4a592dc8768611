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

/** Products sold as their variations (WooCommerce and WooCommerce Subscriptions). */
const VARIABLE_TYPES: ReadonlySet<string> = new Set(['variable', 'variable-subscription']);

export const isVariable = (product: WooProduct) => VARIABLE_TYPES.has(product.type);

/** A variation's own record (`type` "variation", or WooCommerce Subscriptions' "subscription_variation"). */
export const isVariation = (product: WooProduct) => product.parent_id > 0 && product.type.endsWith('variation');

/**
 * A variable product is no product here: it is sold as its variations, each mapped with
 * mapVariation. What is kept of it says which variations it has now, and whether it was deleted
 * (then so are they).
 */
export function mapVariableProduct(product: WooProduct): StoreProduct {
  return {
    shopProductId: product.id,
    type: 'once',
    name: product.name.trim().slice(0, 191) || `Product ${product.id}`,
    amount: 0,
    interval: null,
    intervalValue: null,
    times: null,
    deleted: product.status === 'trash',
    modifiedAt: storeModifiedAt(product.date_modified_gmt),
    variationIds: product.variations,
  };
}

/**
 * A variation of `parent` as a product of its own: named "Parent — Blue, S", at its own price, a
 * subscription when its parent is a variable subscription (WooCommerce Subscriptions keeps the
 * period on each variation). Deleted with its parent.
 */
export function mapVariation(variation: WooProduct, parent: WooProduct): StoreProduct {
  const options = variation.attributes.map((attribute) => (attribute.option ?? '').trim()).filter(Boolean);
  const values = variation.name.trim() || options.join(', ') || `#${variation.id}`;
  const parentName = parent.name.trim() || `Product ${parent.id}`;
  return {
    ...mapProduct(variation, parent),
    name: `${parentName} — ${values}`.slice(0, 191),
    deleted: variation.status === 'trash' || parent.status === 'trash',
    parentShopProductId: parent.id,
  };
}

/** The plugin's own subscription products: `_rps_recurring` "yes" on a simple product or on a variation itself. */
export const RECURRING_FLAG = '_rps_recurring';

/** A whole number ≥ `least` from the meta, `absent` when the meta is not there; throws naming the meta when it is no such number. */
function wholeMeta(product: WooProduct, key: string, least: number, absent: number): number {
  const text = metaText(product, key);
  if (text === null) return absent;
  const value = Number(text.trim());
  if (!/^\d+$/.test(text.trim()) || value < least) throw new Error(`${key} "${text}" is not a whole number ≥ ${least}`);
  return value;
}

/**
 * A product the plugin made recurring (the `_rps_*` meta, the store's contract): the price is the price per period;
 * `_rps_length` counts payments including the first, 0 or absent until cancelled — what `times` means here; the trial
 * delays the first charge and the sign-up fee is charged once at the checkout.
 */
function mapRecurringProduct(product: WooProduct, base: Omit<StoreProduct, 'type' | 'interval' | 'intervalValue' | 'times'>): StoreProduct {
  const period = metaText(product, '_rps_interval');
  if (!period || !PERIODS.has(period)) throw new Error(`_rps_interval "${period ?? ''}" is not day, week, month or year`);
  const length = wholeMeta(product, '_rps_length', 0, 0);
  const feeText = metaText(product, '_rps_signup_fee');
  const signupFee = feeText === null ? 0 : centsFromDecimalString(feeText.trim());
  if (signupFee === null || signupFee < 0) throw new Error(`_rps_signup_fee "${feeText ?? ''}" is not an amount`);
  return {
    ...base,
    type: 'subscription',
    interval: period as IntervalUnit,
    intervalValue: wholeMeta(product, '_rps_interval_count', 1, 1),
    times: length === 0 ? null : length,
    trialDays: wholeMeta(product, '_rps_trial_days', 0, 0),
    signupFee,
  };
}

/** Throws an Error naming what is wrong; the sync records it against the product and goes on. */
export function mapProduct(product: WooProduct, parent?: WooProduct): StoreProduct {
  const recurring = ['yes', '1', 'true'].includes(String(meta(product, RECURRING_FLAG) ?? '').toLowerCase());
  const period = metaText(product, '_subscription_period');
  const subscription =
    product.type === 'subscription' ||
    product.type === 'variable-subscription' ||
    parent?.type === 'variable-subscription' ||
    period !== null;
  const priceText =
    (subscription && !recurring ? metaText(product, '_subscription_price') : null) ?? (product.price || product.regular_price || '0');
  const amount = centsFromDecimalString(priceText);
  if (amount === null || amount < 0) throw new Error(`price "${priceText}" is not an amount`);
  const base = {
    shopProductId: product.id,
    name: product.name.trim().slice(0, 191) || `Product ${product.id}`,
    amount,
    deleted: product.status === 'trash',
    modifiedAt: storeModifiedAt(product.date_modified_gmt),
    shipped: !product.virtual,
  };
  const shipping = [product, ...(parent ? [parent] : [])].some((record) =>
    ['yes', '1', 'true'].includes(String(meta(record, SHIPPING_FLAG) ?? '').toLowerCase()),
  );
  if (shipping) {
    return { ...base, type: 'shipping_costs', interval: null, intervalValue: null, times: null };
  }
  // The plugin's own meta wins over WooCommerce Subscriptions' on a product that has both.
  if (recurring) return mapRecurringProduct(product, base);
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

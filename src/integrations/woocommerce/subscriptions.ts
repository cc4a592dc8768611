import { z } from 'zod';
import { ShopApiError } from '../errors';
import type { StoreSubscription, StoreSubscriptionOrder, StoreSubscriptionPage, StoreSubscriptionStatus } from '../records';
import type { WooClient } from './client';
import { mapOrder } from './orderMapping';
import { wooOrder, wooSubscription, type WooSubscription } from './schemas';
import { centsOfSum } from '../../money/decimalSum';

/**
 * WooCommerce Subscriptions' subscriptions (`/wc/v3/subscriptions`), read to be taken over, and
 * handed to our gateway. Mollie's WooCommerce plugin (mollie/WooCommerce) keeps the Mollie customer
 * and mandate it charges on the subscription as `_mollie_customer_id` and `_mollie_mandate_id` and its
 * gateways are `mollie_wc_gateway_<method>` (docs/moving-over.md says where in its source).
 */
export const MOLLIE_GATEWAY_PREFIX = 'mollie_wc_gateway_';
export const MOLLIE_CUSTOMER_META = '_mollie_customer_id';
export const MOLLIE_MANDATE_META = '_mollie_mandate_id';
/** Our plugin's gateway (plugin-bridge: RPS_Gateway::ID). */
export const OUR_GATEWAY = 'rps';
/**
 * On the extension's subscription: the service's subscription that bills it (plugin-bridge:
 * RPS_Wcs::SERVICE_ID_META). The plugin tells that one of a cancel, suspend or reactivation there.
 */
export const SERVICE_SUBSCRIPTION_META = '_rps_service_subscription_id';

const PAGE_SIZE = 100;
const arrayOfUnknown = z.array(z.unknown());

const STATUSES: Record<string, StoreSubscriptionStatus> = {
  pending: 'pending',
  active: 'active',
  'on-hold': 'on_hold',
  'pending-cancel': 'pending_cancel',
  cancelled: 'cancelled',
  expired: 'expired',
};

/** `2026-12-25T10:00:00` → `2026-12-25 10:00:00` (GMT), as the other store times here. */
const gmt = (value: string | null): string | null => (value ? value.replace('T', ' ').slice(0, 19) : null);
const text = (value: string | undefined): string | null => (value && value.trim() !== '' ? value.trim() : null);

function metaOf(meta: ReadonlyArray<{ key: string; value: unknown }>, key: string): string | null {
  const found = meta.find((entry) => entry.key === key);
  return typeof found?.value === 'string' && found.value.trim() !== '' ? found.value.trim() : null;
}

const metaText = (subscription: WooSubscription, key: string): string | null => metaOf(subscription.meta_data, key);

function cents(value: string, what: string): number {
  const amount = centsOfSum(value);
  if (amount === null) throw new Error(`${what} is not an amount: ${value}`);
  return amount;
}

/** The subscription as the service reads it; throws an Error naming the field it cannot use. */
export function mapSubscription(subscription: WooSubscription): StoreSubscription {
  if (subscription.billing_interval < 1) throw new Error(`billing_interval: ${subscription.billing_interval} is not a period count`);
  const paymentMethod = text(subscription.payment_method);
  const byMollie = paymentMethod !== null && paymentMethod.startsWith(MOLLIE_GATEWAY_PREFIX);
  const billing = subscription.billing;
  return {
    shopSubscriptionId: subscription.id,
    status: STATUSES[subscription.status] ?? 'other',
    shopStatus: subscription.status,
    interval: subscription.billing_period,
    intervalCount: subscription.billing_interval,
    nextPaymentAt: gmt(subscription.next_payment_date_gmt),
    lastPaymentAt: gmt(subscription.last_payment_date_gmt),
    endAt: gmt(subscription.end_date_gmt),
    startAt: gmt(subscription.start_date_gmt),
    amountCents: cents(subscription.total, 'total'),
    taxCents: cents(subscription.total_tax, 'total_tax'),
    currency: subscription.currency.toUpperCase(),
    customer: {
      shopCustomerId: subscription.customer_id > 0 ? subscription.customer_id : null,
      email: text(billing.email),
      firstName: text(billing.first_name),
      lastName: text(billing.last_name),
      organizationName: text(billing.company),
      country: text(billing.country),
    },
    lines: subscription.line_items.map((line, index) => {
      const amount = centsOfSum(line.total, line.total_tax);
      if (amount === null) throw new Error(`line_items.${index}.total is not an amount: ${line.total}`);
      return {
        shopProductId: line.product_id,
        variationId: line.variation_id > 0 ? line.variation_id : null,
        name: line.name,
        quantity: line.quantity,
        amount,
        tax: centsOfSum(line.total_tax) ?? undefined,
      };
    }),
    paymentMethod,
    provider: byMollie ? 'mollie' : null,
    requiresManualRenewal: subscription.requires_manual_renewal,
    // Another gateway's meta is not the Mollie customer it charges (left over from an earlier gateway).
    providerCustomerId: byMollie ? metaText(subscription, MOLLIE_CUSTOMER_META) : null,
    providerMandateId: byMollie ? metaText(subscription, MOLLIE_MANDATE_META) : null,
    parentShopOrderId: subscription.parent_id > 0 ? subscription.parent_id : null,
    serviceSubscriptionId: metaText(subscription, SERVICE_SUBSCRIPTION_META),
  };
}

const RELATIONS: Record<string, StoreSubscriptionOrder['relation']> = {
  parent_order: 'parent',
  renewal_order: 'renewal',
  switch_order: 'switch',
};

/**
 * `GET /subscriptions/{id}/orders`: the extension answers the subscription's parent, renewal and
 * switch orders, each an order with `order_type` (`parent_order`, …) added (7.8:
 * WC_REST_Subscriptions_V2_Controller::get_subscription_orders). Mollie's plugin keeps its customer
 * and mandate on them as on the subscription, whichever gateway the order was paid with.
 */
export async function subscriptionOrders(client: WooClient, shopSubscriptionId: number): Promise<StoreSubscriptionOrder[]> {
  const { body } = await client.get(
    `subscriptions/${shopSubscriptionId}/orders`,
    z.array(wooOrder.extend({ order_type: z.string().default('') })),
  );
  return body.map((order) => ({
    relation: RELATIONS[order.order_type] ?? 'other',
    order: mapOrder(order),
    shopStatus: order.status,
    providerCustomerId: metaOf(order.meta_data, MOLLIE_CUSTOMER_META),
    providerMandateId: metaOf(order.meta_data, MOLLIE_MANDATE_META),
  }));
}

/** One page (100 a page, 1 first) of the store's subscriptions, every status; each record validated alone. */
export async function listSubscriptions(client: WooClient, page: number): Promise<StoreSubscriptionPage> {
  const answer = await client.get('subscriptions', arrayOfUnknown, { per_page: PAGE_SIZE, page, orderby: 'id', order: 'asc' });
  const subscriptions: StoreSubscription[] = [];
  const rejected: StoreSubscriptionPage['rejected'] = [];
  for (const record of answer.body) {
    const id = typeof record === 'object' && record !== null && 'id' in record ? (record as { id: unknown }).id : null;
    const parsed = wooSubscription.safeParse(record);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      rejected.push({ id, error: `${issue?.path.join('.') || 'record'}: ${issue?.message ?? 'invalid'}` });
      continue;
    }
    try {
      subscriptions.push(mapSubscription(parsed.data));
    } catch (error) {
      rejected.push({ id, error: (error as Error).message });
    }
  }
  return { page, totalPages: Math.max(1, answer.totalPages ?? 1), total: answer.total, subscriptions, rejected };
}

/** `GET /subscriptions/{id}`: the subscription as the store has it now; a ShopApiError with status 404 when it has none. */
export async function fetchSubscription(client: WooClient, shopSubscriptionId: number): Promise<StoreSubscription> {
  const { body } = await client.get(`subscriptions/${shopSubscriptionId}`, wooSubscription);
  return mapSubscription(body);
}

/**
 * Hands the subscription to `gateway`: its payment method, billed automatically, and the service's
 * subscription that bills it from now on kept on it in the same request (`meta_data`), so that the
 * plugin can tell that one of a cancel in My Account from the first moment. With our gateway
 * (`gateway_scheduled_payments`) the extension then makes no renewal order and charges nothing. The
 * store answers the subscription as it is afterwards; any other outcome (the id not kept included) is
 * refused, never taken as done.
 *
 * Seen in the real store (WooCommerce Subscriptions 7.8.2): the extension accepts a new payment
 * method only from a gateway that is available and supports `subscription_payment_method_change_admin`,
 * and when it refuses (400) it has already cleared the subscription's payment method and made it a
 * manual renewal. The caller must switch only once its own subscription holds the next charge.
 */
export async function switchSubscriptionToGateway(
  client: WooClient,
  shopSubscriptionId: number,
  gateway: string,
  serviceSubscriptionId: string,
): Promise<StoreSubscription> {
  const { body } = await client.put(
    `subscriptions/${shopSubscriptionId}`,
    {
      payment_method: gateway,
      requires_manual_renewal: false,
      meta_data: [{ key: SERVICE_SUBSCRIPTION_META, value: serviceSubscriptionId }],
    },
    wooSubscription,
  );
  const switched = mapSubscription(body);
  if (switched.paymentMethod !== gateway || switched.requiresManualRenewal)
    throw new ShopApiError(
      'refused',
      `the store kept subscription ${shopSubscriptionId} on ${switched.paymentMethod ?? 'no gateway'}` +
        (switched.requiresManualRenewal ? ' with manual renewals' : ''),
      200,
    );
  if (switched.serviceSubscriptionId !== serviceSubscriptionId)
    throw new ShopApiError('refused', `the store did not keep our subscription's id on subscription ${shopSubscriptionId}`, 200);
  return switched;
}

import { z } from 'zod';
import type { PaymentForStore, RenewalOrder, StoreOrderRef } from '../records';
import type { WooClient } from './client';
import { latePaymentNote, paidNote, renewalNote, subscriptionRefusedNote, unpaidNote } from './notes';
import { storeModifiedAt } from './modified';
import { SERVICE_ORDER_ID_META } from './orderMapping';
import { wooOrder, type WooOrder } from './schemas';
import { OUR_GATEWAY } from './subscriptions';

/** The meta key under which the service writes its payment id on store orders (the plugin reads it too). */
export const META_PAYMENT_ID = '_rps_payment_id';
/** On a renewal order: the service's subscription it charges (the store's contract with the plugin). */
export const META_SUBSCRIPTION_ID = '_rps_subscription_id';
/** On a paid checkout order: the service's subscriptions it started, comma-separated. */
export const META_SUBSCRIPTION_IDS = '_rps_subscription_ids';
/**
 * On a renewal order of WooCommerce Subscriptions' subscription: that subscription (the extension's
 * own relation meta, read by `wcs_get_subscriptions_for_renewal_order`; the plugin adds the relation
 * through the extension's related-order store too, which keeps its cache), and the service's next
 * charge date (`Y-m-d`, the account's time zone), which the plugin gives the extension's subscription.
 */
export const META_WCS_RENEWAL = '_subscription_renewal';
export const META_NEXT_PAYMENT = '_rps_next_payment_at';
/** Store order statuses that still wait for a payment: a paid write-back moves them to processing. */
const PAYABLE = new Set(['pending', 'failed', 'on-hold', 'checkout-draft']);

const anyBody = z.unknown();
const orderList = z.array(wooOrder);

const refOf = (order: WooOrder): StoreOrderRef => ({
  shopOrderId: order.id,
  shopOrderNumber: order.number.slice(0, 64),
  createdAt: storeModifiedAt(order.date_created_gmt),
});

const addNote = (client: WooClient, shopOrderId: number, note: string) => client.post(`orders/${shopOrderId}/notes`, { note }, anyBody);

export async function markPaid(
  client: WooClient,
  shopOrderId: number,
  payment: PaymentForStore,
  subscriptionIds: readonly string[] = [],
): Promise<void> {
  const { body: current } = await client.get(`orders/${shopOrderId}`, wooOrder);
  const record = {
    transaction_id: payment.providerPaymentId ?? '',
    meta_data: [
      { key: META_PAYMENT_ID, value: payment.id },
      ...(subscriptionIds.length ? [{ key: META_SUBSCRIPTION_IDS, value: subscriptionIds.join(',') }] : []),
    ],
  };
  // Never moves an order back: one the merchant completed (or the plugin marked paid) keeps its status.
  await client.put(
    `orders/${shopOrderId}`,
    PAYABLE.has(current.status) ? { ...record, set_paid: true, status: 'processing' } : record,
    wooOrder,
  );
  const late =
    PAYABLE.has(current.status) || current.status === 'processing' || current.status === 'completed' ? '' : latePaymentNote(current.status);
  await addNote(client, shopOrderId, paidNote(payment) + late);
}

export async function noteUnpaid(client: WooClient, shopOrderId: number, payment: PaymentForStore): Promise<void> {
  await addNote(client, shopOrderId, unpaidNote(payment));
}

/** Among the parent's children, the one carrying our order id in its meta. */
export async function findRenewalOrder(
  client: WooClient,
  parentShopOrderId: number,
  serviceOrderId: string,
): Promise<StoreOrderRef | null> {
  const { body: children } = await client.get('orders', orderList, { parent: parentShopOrderId, per_page: 100 });
  const mine = children.find((child) =>
    child.meta_data.some((meta) => meta.key === SERVICE_ORDER_ID_META && meta.value === serviceOrderId),
  );
  return mine ? refOf(mine) : null;
}

/**
 * `client` must not retry by itself: a retry after a lost answer would make a second order. Made
 * pending, as a checkout makes an order: WooCommerce adds its tax to the line and shipping subtotals
 * given without tax (it recalculates a new order's totals), so the order costs what the first one
 * did, and settling it afterwards (settleRenewal) moves it through the store's own status
 * transitions, which send its e-mails.
 */
export async function createRenewalOrder(client: WooClient, renewal: RenewalOrder): Promise<StoreOrderRef> {
  const { buyer, payment } = renewal;
  // The buyer's store account, as on the first order: without it WooCommerce files the renewal under
  // no customer, and it is missing from the buyer's My Account → Orders ("Invalid order" on its link).
  const { body: parent } = await client.get(`orders/${renewal.parentShopOrderId}`, wooOrder);
  // A renewal of the extension's subscription is charged through our gateway, whichever gateway its
  // parent order names: one taken over from Mollie's plugin (an import) was bought through that one.
  const paymentMethod = renewal.shopSubscription ? OUR_GATEWAY : renewal.paymentMethod;
  const title = paymentMethod === renewal.paymentMethod ? renewal.paymentMethodTitle : null;
  const { body: made } = await client.post(
    'orders',
    {
      parent_id: renewal.parentShopOrderId,
      ...(parent.customer_id > 0 ? { customer_id: parent.customer_id } : {}),
      status: 'pending',
      currency: renewal.currency,
      ...(paymentMethod ? { payment_method: paymentMethod } : {}),
      ...(title ? { payment_method_title: title } : {}),
      billing: {
        first_name: buyer.firstName ?? '',
        last_name: buyer.lastName ?? '',
        company: buyer.organizationName ?? '',
        email: buyer.email ?? '',
        phone: buyer.phone ?? '',
        address_1: buyer.address ?? '',
        postcode: buyer.postalCode ?? '',
        city: buyer.city ?? '',
        country: buyer.country ?? '',
      },
      // A variation is named with its product, as WooCommerce's own order lines name it. Subtotal and
      // total alike: the first order's one-time coupons do not recur.
      line_items: renewal.lines.map((line) => ({
        ...(line.parentShopProductId
          ? { product_id: line.parentShopProductId, variation_id: line.shopProductId }
          : { product_id: line.shopProductId }),
        quantity: line.quantity,
        ...(line.subtotal === null ? {} : { subtotal: line.subtotal, total: line.subtotal }),
      })),
      shipping_lines: renewal.shippingLines.map((line) => ({
        method_id: line.methodId,
        method_title: line.methodTitle,
        total: line.total,
      })),
      meta_data: [
        { key: SERVICE_ORDER_ID_META, value: renewal.serviceOrderId },
        { key: META_PAYMENT_ID, value: payment.id },
        ...(renewal.subscriptionId ? [{ key: META_SUBSCRIPTION_ID, value: renewal.subscriptionId }] : []),
        ...(renewal.shopSubscription
          ? [
              { key: META_WCS_RENEWAL, value: String(renewal.shopSubscription.id) },
              ...(renewal.shopSubscription.nextPaymentAt
                ? [{ key: META_NEXT_PAYMENT, value: renewal.shopSubscription.nextPaymentAt }]
                : []),
            ]
          : []),
      ],
    },
    wooOrder,
  );
  return refOf(made);
}

/**
 * What the renewal's payment came to, on its order: paid moves a payable order to processing
 * (`pending → processing`, or `failed → processing` when a follow-up recovered it), unpaid moves a
 * pending one to failed; either is noted. An order the merchant moved on keeps its status.
 */
export async function settleRenewal(
  client: WooClient,
  shopOrderId: number,
  parentShopOrderNumber: string,
  payment: PaymentForStore,
): Promise<void> {
  const { body: current } = await client.get(`orders/${shopOrderId}`, wooOrder);
  if (payment.status === 'paid' && PAYABLE.has(current.status)) {
    await client.put(
      `orders/${shopOrderId}`,
      {
        transaction_id: payment.providerPaymentId ?? '',
        meta_data: [{ key: META_PAYMENT_ID, value: payment.id }],
        set_paid: true,
        status: 'processing',
      },
      wooOrder,
    );
  } else if (payment.status !== 'paid' && current.status === 'pending') {
    await client.put(`orders/${shopOrderId}`, { status: 'failed' }, wooOrder);
  }
  await addNote(client, shopOrderId, renewalNote(parentShopOrderNumber, payment));
}

export async function noteSubscriptionRefused(client: WooClient, shopOrderId: number, reason: string): Promise<void> {
  await addNote(client, shopOrderId, subscriptionRefusedNote(reason));
}

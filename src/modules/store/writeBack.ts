import type { Knex } from 'knex';
import type { AppContext } from '../../context';
import type { PaymentForStore, StoreBuyer, StoreOrderRef } from '../../integrations/records';
import { formatDate, toDbDateTime } from '../../time';
import { ordersRepository, type OrderRow } from '../orders/repository';
import { providerDisplayName } from '../payments/providerLabel';
import { paymentsRepository, type PaymentRow } from '../payments/repository';
import { productsRepository } from '../products/repository';
import { subscriptionsRepository } from '../subscriptions/repository';
import { shippingLinesOf } from './renewalAmounts';
import type { ShopRow } from './repository';
import { connectedStore, storeClient } from './storeClient';
import type { ShopTaskRow } from './tasksRepository';

/** More subscriptions than one order's lines could start: the meta lists them all. */
const MAX_LISTED_SUBSCRIPTIONS = 100;
/** Quick retries within one attempt (a store's hiccup); longer outages wait for the task's next attempt. */
const TASK_CLIENT_RETRIES = 2;

/** A task that cannot succeed however often it is tried. */
export class HopelessTask extends Error {}

/** Our payment as the store is told of it, named by the account's provider (`providerName`) for the order notes. */
const forStore = (payment: PaymentRow, providerName: string): PaymentForStore => ({
  id: payment.id,
  providerName,
  providerPaymentId: payment.provider_payment_id,
  status: payment.status,
  failureReason: payment.failure_reason,
  currency: payment.currency,
  amount: Number(payment.amount),
});

const buyerOf = (order: OrderRow): StoreBuyer => ({
  firstName: order.first_name,
  lastName: order.last_name,
  email: order.email,
  organizationName: order.organization_name,
  phone: order.phone,
  address: order.address,
  postalCode: order.postal_code,
  city: order.city,
  country: order.country,
});

function requireShopOrderId(order: OrderRow): number {
  if (order.shop_order_id === null) throw new HopelessTask(`order ${order.id} is not a store order`);
  return Number(order.shop_order_id);
}

const recordStoreOrder = (ctx: AppContext, db: Knex, order: OrderRow, made: StoreOrderRef) =>
  ordersRepository.update(db, order.account_id, order.id, {
    shop_order_id: made.shopOrderId,
    shop_order_number: made.shopOrderNumber,
    ...(made.createdAt ? { created_at: made.createdAt } : {}),
    updated_at: toDbDateTime(ctx.clock.now()),
  });

/**
 * A subscription's charge as an order in the store, child of the order the subscription came from.
 * Made once: the order carries our order id, and an attempt after one whose answer was lost first
 * looks among the parent's children for it.
 */
async function writeRenewal(
  ctx: AppContext,
  db: Knex,
  shop: ShopRow,
  task: ShopTaskRow,
  order: OrderRow,
  payment: PaymentRow,
  providerName: string,
): Promise<void> {
  const store = storeClient(ctx, shop, TASK_CLIENT_RETRIES);
  const parent = order.parent_order_id ? await ordersRepository.find(db, order.account_id, order.parent_order_id) : undefined;
  if (!parent || parent.shop_order_id === null) throw new HopelessTask(`renewal order ${order.id} has no store order to renew`);
  const parentShopId = Number(parent.shop_order_id);
  let shopOrderId = order.shop_order_id === null ? null : Number(order.shop_order_id);
  if (shopOrderId === null && task.attempts > 0) {
    const mine = await store.findRenewalOrder(parentShopId, order.id);
    if (mine) {
      shopOrderId = mine.shopOrderId;
      await recordStoreOrder(ctx, db, order, mine);
    }
  }
  if (shopOrderId === null) {
    const lines = await ordersRepository.linesOf(db, order.account_id, [order.id]);
    const products = await productsRepository.findMany(
      db,
      order.account_id,
      lines.map((line) => line.product_id),
    );
    const subscription = order.subscription_id
      ? await subscriptionsRepository.find(db, order.account_id, order.subscription_id)
      : undefined;
    const shopSubscriptionId = subscription?.shop_subscription_id ? Number(subscription.shop_subscription_id) : null;
    // Made without retries of its own: the task's next attempt looks for it first instead.
    const made = await store.createRenewalOrder({
      serviceOrderId: order.id,
      parentShopOrderId: parentShopId,
      currency: order.currency,
      buyer: buyerOf(order),
      paymentMethod: order.payment_method ?? null,
      paymentMethodTitle: order.payment_method_title ?? null,
      lines: lines.flatMap((line) => {
        const product = products.get(line.product_id);
        if (!product?.shop_product_id) return [];
        const parent = product.shop_parent_product_id ? Number(product.shop_parent_product_id) : null;
        return [
          {
            shopProductId: Number(product.shop_product_id),
            quantity: line.quantity,
            parentShopProductId: parent,
            subtotal: line.shop_subtotal ?? null,
          },
        ];
      }),
      shippingLines: shippingLinesOf(order),
      payment: forStore(payment, providerName),
      subscriptionId: order.subscription_id,
      shopSubscription:
        shopSubscriptionId === null
          ? null
          : { id: shopSubscriptionId, nextPaymentAt: subscription?.next_payment_at ? formatDate(subscription.next_payment_at) : null },
    });
    shopOrderId = made.shopOrderId;
    await recordStoreOrder(ctx, db, order, made);
  }
  await store.settleRenewal(shopOrderId, parent.shop_order_number ?? String(parentShopId), forStore(payment, providerName));
}

/** Tells the store what a task says: its order paid, a payment of it that failed, or a renewal order to make. */
export async function performShopTask(ctx: AppContext, task: ShopTaskRow): Promise<void> {
  const shop = await connectedStore(ctx, task.account_id);
  if (!shop) throw new Error('no store is connected to this account');
  const order = await ordersRepository.find(ctx.db, task.account_id, task.order_id);
  const payment = task.payment_id ? await paymentsRepository.find(ctx.db, task.account_id, task.payment_id) : undefined;
  if (!order || !payment) throw new HopelessTask(`task ${task.id} has no order or payment`);
  const providerName = await providerDisplayName(ctx, task.account_id);
  if (task.kind === 'renewal') return writeRenewal(ctx, ctx.db, shop, task, order, payment, providerName);
  const store = storeClient(ctx, shop, TASK_CLIENT_RETRIES);
  if (task.kind === 'paid') {
    // The subscriptions the order started (in the paid payment's settlement, before this task): the plugin's My Account reads them.
    const started = await subscriptionsRepository.startedByOrder(ctx.db, order.account_id, order.id, MAX_LISTED_SUBSCRIPTIONS);
    await store.markPaid(
      requireShopOrderId(order),
      forStore(payment, providerName),
      started.map((subscription) => subscription.id),
    );
    if (order.subscription_refusal) await store.noteSubscriptionRefused(requireShopOrderId(order), order.subscription_refusal);
  } else await store.noteUnpaid(requireShopOrderId(order), forStore(payment, providerName));
}

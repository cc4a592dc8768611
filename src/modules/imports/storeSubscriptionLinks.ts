import type { AppContext } from '../../context';
import type { StoreClient } from '../../integrations/platform';
import type { StoreOrder, StoreSubscription } from '../../integrations/records';
import { toDbDateTime } from '../../time';
import { ordersRepository, type OrderRow } from '../orders/repository';
import { upsertStoreOrders } from '../orders/storeOrdersRepository';
import { productsRepository } from '../products/repository';
import { upsertStoreProducts } from '../products/storeProductsRepository';
import { subscriptionsRepository, type SubscriptionRow } from '../subscriptions/repository';

/**
 * Our order of the store's order, written from the store when the order sync has not brought it yet
 * (with the products of its lines, so that its lines are kept): the parent order of a subscription
 * bought before the store was connected, or paid with another gateway.
 */
async function ourOrderOf(ctx: AppContext, store: StoreClient, accountId: string, order: StoreOrder): Promise<OrderRow | undefined> {
  const known = await ordersRepository.findByShopOrderId(ctx.db, accountId, order.shopOrderId);
  if (known) return known;
  const asked = [...new Set(order.lines.map((line) => line.parentShopProductId ?? line.shopProductId))];
  const synced = await productsRepository.idsOfShopProducts(ctx.db, accountId, [...new Set(order.lines.map((line) => line.shopProductId))]);
  const missing = asked.filter((id) =>
    order.lines.some((line) => (line.parentShopProductId ?? line.shopProductId) === id && !synced.has(line.shopProductId)),
  );
  const now = toDbDateTime(ctx.clock.now());
  if (missing.length) await upsertStoreProducts(ctx.db, accountId, await store.fetchProducts(missing), now);
  await upsertStoreOrders(ctx.db, accountId, [order], now);
  return ordersRepository.findByShopOrderId(ctx.db, accountId, order.shopOrderId);
}

/**
 * Links our imported subscription to the store's as a subscription bought at our checkout is linked
 * (orderSubscriptions.ts): `shop_subscription_id`, the origin order (our order of the store's parent
 * order) and that order's lines of the subscription's products. Each charge of ours then becomes one
 * renewal order in the store, child of the parent order and linked to the extension's subscription
 * (renewals.ts, writeBack.ts). Safe to repeat. Answers a note when renewals cannot be written there.
 */
export async function linkToStoreSubscription(
  ctx: AppContext,
  store: StoreClient,
  subscription: SubscriptionRow,
  theirs: StoreSubscription,
  parent: StoreOrder | null,
): Promise<string | undefined> {
  const accountId = subscription.account_id;
  const order = parent ? await ourOrderOf(ctx, store, accountId, parent) : undefined;
  if (order) {
    const wanted = new Set(theirs.lines.map((line) => line.variationId ?? line.shopProductId));
    const lines = await ordersRepository.linesOf(ctx.db, accountId, [order.id]);
    const products = await productsRepository.findMany(
      ctx.db,
      accountId,
      lines.map((line) => line.product_id),
    );
    const held = lines.filter((line) => {
      const shopId = products.get(line.product_id)?.shop_product_id;
      return (
        shopId !== null &&
        shopId !== undefined &&
        wanted.has(Number(shopId)) &&
        (!line.subscription_id || line.subscription_id === subscription.id)
      );
    });
    await ordersRepository.attachLinesToSubscription(
      ctx.db,
      accountId,
      order.id,
      held.map((line) => line.id),
      { id: subscription.id, nextOrder: subscription.next_payment_at },
    );
  }
  await subscriptionsRepository.update(ctx.db, subscription, {
    shop_subscription_id: theirs.shopSubscriptionId,
    origin_order_id: order?.id ?? null,
    updated_at: toDbDateTime(ctx.clock.now()),
  });
  return order ? undefined : 'the store has no parent order of it: its renewals are not written to the store';
}

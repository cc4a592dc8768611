import { z } from 'zod';
import type { Account, AppContext } from '../../context';
import { AppError, ValidationError } from '../../http/errors';
import { formatCents } from '../../money';
import type { WooClient } from '../../shop/woocommerce/client';
import { ShopApiError } from '../../shop/woocommerce/errors';
import { mapOrder } from '../../shop/woocommerce/orderMapping';
import { mapProduct } from '../../shop/woocommerce/productMapping';
import { wooOrder, wooProduct } from '../../shop/woocommerce/schemas';
import { toDbDateTime } from '../../time';
import { ordersRepository, type OrderRow } from '../orders/repository';
import { paymentsRepository } from '../payments/repository';
import { upsertStoreOrders } from '../sync/orderUpsert';
import { upsertStoreProducts } from '../sync/productUpsert';
import { holdsSubscriptionProducts } from './orderSubscriptions';
import { requireConnectedStore, storeClient } from './storeClient';

const CREATE_FAILED = 'Could not create payment. Some fields contain invalid data';

/** The store could not be asked about the order; the checkout may retry. */
export class StoreUnavailableError extends AppError {
  constructor(message: string) {
    super(502, message, 'store_unavailable', true);
  }
}

/** What a checkout payment is made for: the order here, and whether it must leave a mandate. */
export interface CheckoutOrder {
  order: OrderRow;
  subscription: boolean;
}

/**
 * Reads the order from the store as it is now (a checkout order is seconds old: no sync has seen it
 * yet, and the buyer may have changed the cart), with any of its products not synced yet, and writes
 * both here as a sync would.
 */
async function freshStoreOrder(ctx: AppContext, client: WooClient, accountId: string, shopOrderId: number): Promise<void> {
  let record;
  try {
    record = (await client.get(`orders/${shopOrderId}`, wooOrder)).body;
  } catch (error) {
    if (error instanceof ShopApiError && error.status === 404) throw ValidationError.field(CREATE_FAILED, 'shop_order_id', `The store has no order ${shopOrderId}.`);
    throw new StoreUnavailableError(`The store could not be asked for order ${shopOrderId}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const mapped = mapOrder(record);
  const productIds = [...new Set(mapped.lines.map((line) => line.shopProductId))];
  const known = productIds.length
    ? new Set((await ctx.db('products').where('account_id', accountId).whereIn('shop_product_id', productIds).pluck('shop_product_id')).map(Number))
    : new Set<number>();
  const missing = productIds.filter((id) => !known.has(id));
  const now = toDbDateTime(ctx.clock.now());
  if (missing.length) {
    const { body: products } = await client.get('products', z.array(wooProduct), { include: missing.join(','), per_page: 100 });
    await upsertStoreProducts(ctx.db, accountId, products.map(mapProduct), now);
  }
  await upsertStoreOrders(ctx.db, accountId, [mapped], now);
}

/**
 * The Order a checkout payment (`shop_order_id` on POST /api/v2/payments) is for, checked: the
 * store is connected and has the order, it is not paid already, and the payment asks its total.
 */
export async function checkoutOrder(ctx: AppContext, account: Account, shopOrderId: number, amount: number, currency: string): Promise<CheckoutOrder> {
  const shop = await requireConnectedStore(ctx, account.id, CREATE_FAILED, 'shop_order_id');
  try {
    await freshStoreOrder(ctx, storeClient(ctx, shop, { retries: 1 }), account.id, shopOrderId);
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw new StoreUnavailableError(`The store's order ${shopOrderId} could not be read: ${error instanceof Error ? error.message : String(error)}`);
  }
  const order = await ordersRepository.findByShopOrderId(ctx.db, account.id, shopOrderId);
  if (!order) throw new Error(`store order ${shopOrderId} was written but is not found`);
  const paid = await paymentsRepository.table(ctx.db).where({ account_id: account.id, purpose: 'order', purpose_id: order.id, status: 'paid' }).first('id');
  if (paid || order.status === 'paid' || order.status === 'completed') {
    throw ValidationError.field(CREATE_FAILED, 'shop_order_id', `Order ${shopOrderId} is paid already.`);
  }
  if (order.status === 'cancelled') throw ValidationError.field(CREATE_FAILED, 'shop_order_id', `Order ${shopOrderId} is cancelled in the store.`);
  if (order.currency !== currency) throw ValidationError.field(CREATE_FAILED, 'currency', `The currency must be the order's, ${order.currency}.`);
  if (Number(order.total_amount) !== amount) {
    throw ValidationError.field(CREATE_FAILED, 'amount', `The amount must be the order's total, ${formatCents(Number(order.total_amount))}.`);
  }
  return { order, subscription: await holdsSubscriptionProducts(ctx.db, order) };
}

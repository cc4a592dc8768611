import type { Knex } from 'knex';
import { NotFoundError } from '../../errors';
import { formatCents } from '../../money';
import { formatDateTime, formatNullableDate, formatNullableDateTime } from '../../time';
import { followUpsRepository } from '../follow-ups/repository';
import { ordersRepository } from '../orders/repository';
import { paymentsRepository } from '../payments/repository';
import { subscriptionsRepository } from '../subscriptions/repository';
import type { ShopOrderView } from './schemas';

/** Most recent first; a store order has a handful of payments, a subscription a few follow-ups. */
const LIMIT = 20;

/**
 * What the service knows of one store order, for the box on the plugin's order screen: its
 * payments (with the checkout address while one is payable), the subscriptions it started and their
 * follow-ups. Four indexed reads, whatever the order holds.
 */
export async function shopOrderView(db: Knex, accountId: string, shopOrderId: number, timezone: string): Promise<ShopOrderView> {
  const order = await ordersRepository.findByShopOrderId(db, accountId, shopOrderId);
  if (!order) throw new NotFoundError('Order');
  const [payments, subscriptions] = await Promise.all([
    paymentsRepository.latestOfOrder(db, accountId, order.id, LIMIT),
    subscriptionsRepository.startedByOrder(db, accountId, order.id, LIMIT),
  ]);
  const followUps = await followUpsRepository.latestOfSubscriptions(
    db,
    accountId,
    subscriptions.map((row) => row.id),
    LIMIT,
  );
  return {
    shop_order_id: shopOrderId,
    order_id: order.id,
    order_status: order.status,
    payments: payments.map((row) => ({
      id: row.id,
      provider_payment_id: row.provider_payment_id,
      status: row.status,
      amount: formatCents(Number(row.amount)),
      currency: row.currency,
      method: row.method,
      created_at: formatDateTime(row.created_at, timezone),
      paid_at: formatNullableDateTime(row.paid_at, timezone),
      provider_checkout_url: row.status === 'open' ? row.checkout_url : null,
    })),
    subscriptions: subscriptions.map((row) => ({
      id: row.id,
      name: row.name,
      status: row.status,
      next_payment_at: formatNullableDate(row.next_payment_at),
      cancel_at: formatNullableDate(row.cancel_at),
    })),
    follow_ups: followUps.map((row) => ({
      id: row.id,
      subscription_id: row.subscription_id,
      type: row.type,
      status: row.status,
      retries_done: Number(row.retries_done),
    })),
  };
}

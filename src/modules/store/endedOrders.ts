import type { AppContext } from '../../context';
import { formatNullableDate } from '../../time';
import { accountsRepository } from '../accounts/repository';
import { ordersRepository } from '../orders/repository';
import { cancelSubscription } from '../subscriptions/lifecycle';
import { subscriptionsRepository } from '../subscriptions/repository';

/**
 * First store orders cancelled, refunded or trashed in the store (our order `cancelled`) end the
 * subscriptions they started at the end of the period paid: no charge from their next charge date on
 * (the API's cancel with that `cancel_at`), the current period stays served. The webhook and the sync
 * both call it, with the store orders they just wrote; a subscription cancelled already (or given a
 * cancel date by hand) is left as it is. Two queries for a whole page. Answers how many it cancelled.
 */
export async function cancelSubscriptionsOfEndedOrders(
  ctx: AppContext,
  accountId: string,
  shopOrderIds: readonly number[],
): Promise<number> {
  const ended = await ordersRepository.cancelledFirstOrders(ctx.db, accountId, shopOrderIds);
  const started = await subscriptionsRepository.liveStartedByOrders(
    ctx.db,
    accountId,
    ended.map((order) => order.id),
  );
  const account = started.length ? await accountsRepository.findById(ctx.db, accountId) : undefined;
  if (!account) return 0;
  for (const subscription of started) {
    const endOfPaidPeriod = formatNullableDate(subscription.next_payment_at) ?? undefined;
    await cancelSubscription(ctx, account, subscription.id, endOfPaidPeriod);
    ctx.logger.info('subscription cancelled: the store order that started it ended', {
      accountId,
      orderId: subscription.origin_order_id,
      subscriptionId: subscription.id,
    });
  }
  return started.length;
}

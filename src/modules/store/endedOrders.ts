import type { AppContext } from '../../context';
import { formatNullableDate } from '../../time';
import { accountsRepository } from '../accounts/repository';
import { ordersRepository } from '../orders/repository';
import { cancelSubscription } from '../subscriptions/lifecycle';
import { subscriptionsRepository } from '../subscriptions/repository';

/** A store order starts a subscription per product interval: a handful at most. */
const MAX_STARTED = 50;
const LIVE: ReadonlySet<string> = new Set(['draft', 'active', 'paused']);

/**
 * A first store order cancelled, refunded or trashed in the store (our order `cancelled`) ends the
 * subscriptions it started at the end of the period paid: no charge from their next charge date on
 * (the API's cancel with that `cancel_at`), the current period stays served. The webhook and the
 * sync both call it; a subscription cancelled already (or given a cancel date by hand) is left as it is.
 * Answers how many it cancelled.
 */
export async function cancelSubscriptionsOfEndedOrders(
  ctx: AppContext,
  accountId: string,
  shopOrderIds: readonly number[],
): Promise<number> {
  let cancelled = 0;
  for (const shopOrderId of shopOrderIds) {
    const order = await ordersRepository.findByShopOrderId(ctx.db, accountId, shopOrderId);
    if (!order || order.status !== 'cancelled' || order.parent_order_id) continue;
    const started = await subscriptionsRepository.startedByOrder(ctx.db, accountId, order.id, MAX_STARTED);
    const account = started.length ? await accountsRepository.findById(ctx.db, accountId) : undefined;
    if (!account) continue;
    for (const subscription of started) {
      if (!LIVE.has(subscription.status) || subscription.cancel_at) continue;
      const endOfPaidPeriod = formatNullableDate(subscription.next_payment_at) ?? undefined;
      await cancelSubscription(ctx, account, subscription.id, endOfPaidPeriod);
      cancelled += 1;
      ctx.logger.info('subscription cancelled: the store order that started it ended', {
        accountId,
        orderId: order.id,
        subscriptionId: subscription.id,
      });
    }
  }
  return cancelled;
}

import type { Knex } from 'knex';
import type { AppContext } from '../../context';
import { toDbDateTime } from '../../time';
import { followUpsRepository } from '../follow-ups/repository';
import { ordersRepository } from '../orders/repository';
import { mandatesRepository } from '../mandates/repository';
import { moveSubscriptionsTo } from '../takeovers/service';
import { accountTakeoverSettingsRepository } from '../takeovers/repository';
import { paymentsRepository, type PaymentRow } from '../payments/repository';
import type { PaymentSettlement } from '../payments/settlement';
import { UNPAID_STATUSES } from '../payments/transitions';
import { subscribeStoreOrder } from './orderSubscriptions';
import { renewalOrderOf } from './renewals';
import { shopTasksRepository, type ShopTaskKind } from './tasksRepository';
import { attemptAfterCommit } from './storeTasks';

async function queue(
  ctx: AppContext,
  trx: Knex.Transaction,
  accountId: string,
  orderId: string,
  kind: ShopTaskKind,
  paymentId: string,
): Promise<void> {
  const taskId = await shopTasksRepository.enqueue(
    trx,
    { account_id: accountId, order_id: orderId, kind, payment_id: paymentId, origin_key: `${kind}-${paymentId}` },
    toDbDateTime(ctx.clock.now()),
  );
  if (taskId) attemptAfterCommit(ctx, trx, accountId, taskId);
}

/** A checkout payment of a store order settled: the order (and its subscriptions) follow, the store is told. */
async function onOrderPaymentSettled(ctx: AppContext, trx: Knex.Transaction, { payment, to }: PaymentSettlement): Promise<void> {
  const order = payment.purpose_id ? await ordersRepository.find(trx, payment.account_id, payment.purpose_id) : undefined;
  if (!order) return;
  const now = toDbDateTime(ctx.clock.now());
  if (to === 'paid') {
    if (order.status === 'unpaid' || order.status === 'pending')
      await ordersRepository.update(trx, order.account_id, order.id, { status: 'paid', updated_at: now });
    await subscribeStoreOrder(ctx, trx, order, payment);
    await takeOverAtCheckout(ctx, trx, payment);
    await queue(ctx, trx, order.account_id, order.id, 'paid', payment.id);
  } else if (UNPAID_STATUSES.has(to)) {
    await queue(ctx, trx, order.account_id, order.id, 'unpaid', payment.id);
  } else if (to === 'charged_back') {
    await ordersRepository.update(trx, order.account_id, order.id, { status: 'charged_back', updated_at: now });
  }
}

/**
 * When the merchant allows it (`cli accounts set-takeover --store-checkout on`), the mandate a paid
 * store checkout left becomes the mandate of every subscription of that customer in use, as a
 * takeover link's would (takeovers/service.ts); the old mandates left unused are revoked.
 */
async function takeOverAtCheckout(ctx: AppContext, trx: Knex.Transaction, payment: PaymentRow): Promise<void> {
  if (payment.sequence_type !== 'first' || !payment.customer_id || !payment.provider_mandate_id) return;
  if (!(await accountTakeoverSettingsRepository.storeCheckout(trx, payment.account_id))) return;
  const mandate = await mandatesRepository.findForCustomer(trx, payment.account_id, payment.customer_id, payment.provider_mandate_id);
  if (mandate) await moveSubscriptionsTo(ctx, trx, mandate, null, { orderId: payment.purpose_id ?? undefined });
}

/** A charge of a subscription that came from a store order settled: its renewal order, here and in the store. */
async function onChargeSettled(ctx: AppContext, trx: Knex.Transaction, { payment, to }: PaymentSettlement): Promise<void> {
  if (to !== 'paid' && !UNPAID_STATUSES.has(to)) return;
  const renewal = await renewalOrderOf(ctx, trx, payment, to === 'paid');
  if (renewal) await queue(ctx, trx, renewal.account_id, renewal.id, 'renewal', payment.id);
}

/**
 * A follow-up of a failed charge ended paid (its retry, or the payment link it sent): the renewal
 * order of that charge is paid after all, here and in the store (its failed order there moves to
 * processing), as a paid charge would have left it.
 */
async function onFollowUpPaid(ctx: AppContext, trx: Knex.Transaction, { payment, to }: PaymentSettlement): Promise<void> {
  if (to !== 'paid' || !payment.purpose_id) return;
  const followUps =
    payment.purpose === 'follow-up'
      ? [await followUpsRepository.find(trx, payment.account_id, payment.purpose_id)]
      : await followUpsRepository.ofLink(trx, payment.account_id, payment.purpose_id);
  for (const followUp of followUps) {
    if (!followUp || followUp.kind !== 'failure' || !followUp.payment_id) continue;
    const failed = await paymentsRepository.find(trx, payment.account_id, followUp.payment_id);
    if (failed?.purpose !== 'charge') continue;
    const renewal = await renewalOrderOf(ctx, trx, failed, true);
    if (renewal) await queue(ctx, trx, renewal.account_id, renewal.id, 'renewal', payment.id);
  }
}

/** The store listens to the payments made for its orders and to the charges of subscriptions its orders started. */
export function registerStoreOrderSettlement(ctx: AppContext): void {
  // The order is what its checkout payment was made for: recorded first, as a link's or a charge's is.
  ctx.settlements.on('fulfilment', ['order'], (trx, settlement) => onOrderPaymentSettled(ctx, trx, settlement));
  ctx.settlements.on('store', ['charge'], (trx, settlement) => onChargeSettled(ctx, trx, settlement));
  ctx.settlements.on('store', ['follow-up', 'link'], (trx, settlement) => onFollowUpPaid(ctx, trx, settlement));
}

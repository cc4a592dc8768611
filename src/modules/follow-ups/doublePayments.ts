import type { Knex } from 'knex';
import type { AppContext } from '../../context';
import { toDbDateTime } from '../../time';
import { paymentsRepository, type PaymentRow } from '../payments/repository';
import { openFollowUp } from './opening';

/**
 * A link or a store order paid twice (two tabs, a payment that went through after another method
 * was chosen): the later payment's money must go back. There is no refund call yet, so the merchant
 * is told by a follow-up (kind `double_payment`, one per later payment: its origin key) whose reason
 * says which payment to refund; it is never retried or sent to the customer.
 *
 * The settle hook sees the other payment when it was paid before. Two paid at the same instant do
 * not see each other there (each reads from before the other's commit; making them wait for each
 * other deadlocks on MySQL), so the follow-ups job looks again at recent paid payments.
 */

/** How far back the follow-ups job looks for doubles the settle hook could not see. */
const RECHECK_WINDOW_MS = 2 * 24 * 60 * 60 * 1000;

/** `later` was paid for the same link or order as `earlier`: the merchant is asked to refund `later`. */
function openDoublePayment(ctx: AppContext, trx: Knex.Transaction, later: PaymentRow, earlier: Pick<PaymentRow, 'id'>) {
  const what = later.purpose === 'order' ? 'order' : 'payment link';
  return openFollowUp(ctx, trx, {
    kind: 'double_payment',
    originId: later.id,
    accountId: later.account_id,
    customerId: later.customer_id,
    subscriptionId: null,
    orderId: later.purpose === 'order' ? later.purpose_id : null,
    paymentId: later.id,
    providerPaymentId: later.provider_payment_id,
    amount: later.amount,
    currency: later.currency,
    description: later.description,
    providerProfileId: later.provider_profile_id,
    reason:
      `Paid twice: this ${what} was already paid by ` +
      `${earlier.id}. Refund this payment (${later.provider_payment_id ?? later.id}), then set this follow-up solved.`,
    reasonCode: 'double_payment',
  });
}

async function onPaid(ctx: AppContext, trx: Knex.Transaction, payment: PaymentRow): Promise<void> {
  if (payment.purpose_id === null) return;
  const earlier = await paymentsRepository.findOtherPaid(trx, payment);
  if (earlier) await openDoublePayment(ctx, trx, payment, earlier);
}

/** Listens to the payments of links and store orders: one that is paid while another already is opens a follow-up. */
export function registerDoublePaymentFollowUps(ctx: AppContext): void {
  ctx.settlements.on(['link', 'order'], async (trx, { payment, to }) => {
    if (to === 'paid') await onPaid(ctx, trx, payment);
  });
}

/**
 * For the follow-ups job: links and orders with two payments paid, one of them in the last two days,
 * of which neither has a double-payment follow-up yet (the two settled at the same instant). The
 * later made of the two gets it. Answers how many were opened.
 */
export async function openMissedDoublePayments(ctx: AppContext): Promise<number> {
  const since = toDbDateTime(new Date(ctx.clock.now().getTime() - RECHECK_WINDOW_MS));
  const pairs = await paymentsRepository.paidTwiceWithoutFollowUp(ctx.db, since);
  let opened = 0;
  for (const pair of pairs) {
    const [laterId, earlierId] = pair.recent_seq > pair.other_seq ? [pair.recent, pair.other] : [pair.other, pair.recent];
    const made = await ctx.db.transaction(async (trx) => {
      const later = await paymentsRepository.find(trx, pair.account_id, laterId);
      return later?.status === 'paid' ? openDoublePayment(ctx, trx, later, { id: earlierId }) : null;
    });
    if (made) opened += 1;
  }
  return opened;
}

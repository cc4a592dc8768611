import type { Knex } from 'knex';
import type { AppContext } from '../../context';
import { msBefore, toDbDateTime } from '../../time';
import { paymentsRepository, type PaymentRow } from '../payments/repository';
import { accountsRepository } from '../accounts/repository';
import { refundsRepository, type RefundRow } from '../refunds/repository';
import { requestRefund } from '../refunds/service';
import { openFollowUp } from './opening';
import { errorMessage } from '../../errors';

/**
 * A link or a store order paid twice (two tabs, a payment that went through after another method
 * was chosen): the later payment's money must go back. It is refunded automatically, in full, once:
 * the refund's origin key is `double-<later payment id>` (unique per account), made after the commit
 * that found the double and, should that be lost (a crash), by the follow-ups job. The merchant is told
 * by a follow-up (kind `double_payment`, one per later payment: its origin key) saying so; it is never
 * retried or sent to the customer.
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
      `Paid twice: this ${what} was already paid by ${earlier.id}. This payment (${later.provider_payment_id ?? later.id}) ` +
      'is refunded automatically (see its refunds in the API).',
    reasonCode: 'double_payment',
  });
}

/** The origin key of the automatic refund of a payment made twice: one refund per later payment, whoever asks. */
export const doubleRefundKey = (paymentId: string) => `double-${paymentId}`;

/** Refunds a payment made twice in full (once: its origin key); a refusal (refunded by hand already) is logged. */
export async function refundDoublePayment(ctx: AppContext, accountId: string, paymentId: string): Promise<RefundRow | null> {
  const account = await accountsRepository.findById(ctx.db, accountId);
  if (!account) return null;
  try {
    return await requestRefund(ctx, account, paymentId, { originKey: doubleRefundKey(paymentId), description: 'Refund: paid twice' });
  } catch (error) {
    ctx.logger.warn('automatic refund of a double payment not made; tried again by the follow-ups job', {
      accountId,
      paymentId,
      error: errorMessage(error),
    });
    return null;
  }
}

/** After the commit that found the double (a refund is an outside call: never inside the transaction). */
function refundAfterCommit(ctx: AppContext, trx: Knex.Transaction, payment: PaymentRow): void {
  trx.executionPromise.then(
    () => ctx.background.run('refund double payment', () => refundDoublePayment(ctx, payment.account_id, payment.id)),
    () => undefined,
  );
}

async function onPaid(ctx: AppContext, trx: Knex.Transaction, payment: PaymentRow): Promise<void> {
  if (payment.purpose_id === null) return;
  const earlier = await paymentsRepository.findOtherPaid(trx, payment);
  if (!earlier) return;
  await openDoublePayment(ctx, trx, payment, earlier);
  refundAfterCommit(ctx, trx, payment);
}

/**
 * Listens to the payments of links and store orders: one that is paid while another already is opens a
 * follow-up (registered with follow-ups' other handlers: settlement.ts).
 */
export function registerDoublePaymentFollowUps(ctx: AppContext): void {
  ctx.settlements.on('follow-ups', ['link', 'order'], async (trx, { payment, to }) => {
    if (to === 'paid') await onPaid(ctx, trx, payment);
  });
}

/**
 * For the follow-ups job: links and orders with two payments paid, one of them in the last two days,
 * of which neither has a double-payment follow-up yet (the two settled at the same instant). The
 * later made of the two gets it. Answers how many were opened.
 */
export async function openMissedDoublePayments(ctx: AppContext): Promise<number> {
  const since = toDbDateTime(msBefore(ctx.clock.now(), RECHECK_WINDOW_MS));
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

/**
 * For the follow-ups job: payments with a pending double-payment follow-up and no automatic refund yet (the
 * refund after the commit was lost, or refused for a while): refunded now. Answers how many were made.
 */
export async function refundMissedDoublePayments(ctx: AppContext, limit = 50): Promise<number> {
  const missing = await refundsRepository.doublePaymentsWithoutRefund(ctx.db, limit);
  let made = 0;
  for (const row of missing) if (await refundDoublePayment(ctx, row.account_id, row.payment_id)) made += 1;
  return made;
}

import type { Knex } from 'knex';
import type { AppContext } from '../../context';
import { paymentsRepository, type PaymentRow } from '../payments/repository';
import { openFollowUp } from './opening';

/**
 * A link or a store order paid twice (two tabs, a payment that went through after another method
 * was chosen): the later payment's money must go back. There is no refund call yet, so the merchant
 * is told by a follow-up (kind `double_payment`, one per later payment) whose reason says which
 * payment to refund; it is never retried or sent to the customer.
 */
async function onPaid(ctx: AppContext, trx: Knex.Transaction, payment: PaymentRow): Promise<void> {
  if (payment.purpose_id === null) return;
  // A locking read (MySQL): a payment of the same link or order paid at this very moment is seen once
  // it commits, instead of each transaction missing the other. Two paid at the same instant may
  // deadlock here instead; InnoDB rolls one back, and its webhook call, processed again, finds the
  // other paid. SQLite has one writer at a time anyway.
  const earlier = await paymentsRepository
    .table(trx)
    .where({ account_id: payment.account_id, purpose: payment.purpose, purpose_id: payment.purpose_id, status: 'paid' })
    .whereNot('id', payment.id)
    .forShare()
    .first('id');
  if (!earlier) return;
  const what = payment.purpose === 'order' ? 'order' : 'payment link';
  await openFollowUp(ctx, trx, {
    kind: 'double_payment',
    originId: payment.id,
    accountId: payment.account_id,
    customerId: payment.customer_id,
    subscriptionId: null,
    orderId: payment.purpose === 'order' ? payment.purpose_id : null,
    paymentId: payment.id,
    providerPaymentId: payment.provider_payment_id,
    amount: Number(payment.amount),
    currency: payment.currency,
    description: payment.description,
    providerProfileId: payment.provider_profile_id,
    reason: `Paid twice: this ${what} was already paid by ${earlier.id}. Refund this payment (${payment.provider_payment_id ?? payment.id}), then set this follow-up solved.`,
    reasonCode: 'double_payment',
  });
}

/** Listens to the payments of links and store orders: a second `paid` one opens a follow-up. */
export function registerDoublePaymentFollowUps(ctx: AppContext): void {
  ctx.settlements.on(['link', 'order'], async (trx, { payment, to }) => {
    if (to === 'paid') await onPaid(ctx, trx, payment);
  });
}

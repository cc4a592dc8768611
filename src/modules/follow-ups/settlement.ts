import type { Knex } from 'knex';
import type { AppContext } from '../../context';
import { toDbDateTime } from '../../time';
import type { PaymentSettlement } from '../payments/settlement';
import { UNPAID_STATUSES } from '../payments/transitions';
import { chargesRepository } from '../subscriptions/chargesRepository';
import { subscriptionsRepository } from '../subscriptions/repository';
import { registerDoublePaymentFollowUps } from './doublePayments';
import { openFollowUp } from './opening';
import { onLinkPaid, onRetrySettled, solve } from './progress';
import { followUpsRepository } from './repository';

/** The code a chargeback reports: SEPA's reversal (MD06) for a direct debit, `chargeback` for a card. */
function chargebackCode(payment: PaymentSettlement['payment']): string {
  if (payment.failure_code) return payment.failure_code;
  return payment.method === 'directdebit' ? 'MD06' : 'chargeback';
}

/**
 * A charge's payment settled, after billing recorded it on the charge (phase fulfilment). Unpaid: a
 * follow-up takes over. Paid: the follow-up a charge that was not made opened (kind mandate, keyed by
 * the charge) is solved — the payment was given up as rejected and the provider made it after all. Only
 * a charge that was `not_charged` has one, and only this settlement moves it on from there.
 */
async function onChargeSettled(ctx: AppContext, trx: Knex.Transaction, { payment, to }: PaymentSettlement): Promise<void> {
  if (!payment.purpose_id) return;
  if (to === 'paid') {
    const followUp = await followUpsRepository.findByOriginKey(trx, payment.account_id, `mandate-${payment.purpose_id}`);
    if (followUp) await solve(ctx, trx, followUp, toDbDateTime(ctx.clock.now()));
    return;
  }
  if (!UNPAID_STATUSES.has(to)) return;
  const charge = await chargesRepository.find(trx, payment.account_id, payment.purpose_id);
  // Only a charge this payment failed (billing recorded it in phase fulfilment). One that was `not_charged` —
  // its payment given up as rejected, then found failed at the provider after all — has its mandate
  // follow-up asking for the period already: a second one would ask the customer to pay it twice.
  if (!charge || charge.status !== 'failed' || charge.payment_id !== payment.id) return;
  const subscription = await subscriptionsRepository.find(trx, charge.account_id, charge.subscription_id);
  await openFollowUp(ctx, trx, {
    kind: 'failure',
    originId: payment.id,
    accountId: payment.account_id,
    customerId: payment.customer_id,
    subscriptionId: charge.subscription_id,
    paymentId: payment.id,
    providerPaymentId: payment.provider_payment_id,
    amount: payment.amount,
    currency: payment.currency,
    description: subscription?.name ?? payment.description,
    providerProfileId: subscription?.provider_profile_id ?? payment.provider_profile_id,
    reason: payment.failure_reason,
    reasonCode: payment.failure_code,
  });
}

/**
 * Money taken back by the payer's bank or card issuer: the merchant follows it up like a failed
 * charge, for what was taken back — part of the payment, for a partial chargeback. A provider that
 * reports no amount took it all.
 */
async function onChargedBack(ctx: AppContext, trx: Knex.Transaction, { payment }: PaymentSettlement): Promise<void> {
  const chargedBack = payment.amount_charged_back ?? 0;
  await openFollowUp(ctx, trx, {
    kind: 'chargeback',
    originId: payment.id,
    accountId: payment.account_id,
    customerId: payment.customer_id,
    subscriptionId: payment.subscription_id,
    paymentId: payment.id,
    providerPaymentId: payment.provider_payment_id,
    amount: chargedBack > 0 ? chargedBack : payment.amount,
    currency: payment.currency,
    description: payment.description,
    providerProfileId: payment.provider_profile_id,
    reason: payment.failure_reason ?? 'The payment was charged back',
    reasonCode: chargebackCode(payment),
  });
}

/**
 * Follow-ups listen to settlements (phase follow-ups, after what the payment was for recorded it): their
 * own retries and links, a subscription's failed charge, a chargeback of any payment, and a link or
 * store order paid twice.
 */
export function registerFollowUpSettlement(ctx: AppContext): void {
  ctx.settlements.on('follow-ups', ['follow-up'], (trx, { payment, to }) => onRetrySettled(ctx, trx, payment, to));
  ctx.settlements.on('follow-ups', ['link'], async (trx, { payment, to }) => {
    if (to === 'paid') await onLinkPaid(ctx, trx, payment);
  });
  ctx.settlements.on('follow-ups', ['charge'], (trx, settlement) => onChargeSettled(ctx, trx, settlement));
  ctx.settlements.on('follow-ups', 'all', async (trx, settlement) => {
    if (settlement.to === 'charged_back') await onChargedBack(ctx, trx, settlement);
  });
  registerDoublePaymentFollowUps(ctx);
}

import type { Knex } from 'knex';
import type { AppContext } from '../../context';
import { toDbDateTime } from '../../time';
import { openFollowUp } from '../follow-ups/opening';
import { onLinkPaid, onRetrySettled, solve } from '../follow-ups/progress';
import { followUpsRepository } from '../follow-ups/repository';
import type { PaymentSettlement } from '../payments/settlement';
import { subscriptionsRepository } from '../subscriptions/repository';
import { chargesRepository, type ChargeRow } from './chargesRepository';
import { oweInvoice } from '../invoices/issuing';
import { creditMoneyBack } from '../invoices/moneyBack';

/** A charge's payment that ended without money: a follow-up takes over. */
const UNPAID: ReadonlySet<string> = new Set(['failed', 'expired', 'canceled']);

/** The code a chargeback reports: SEPA's reversal (MD06) for a direct debit, `chargeback` for a card. */
function chargebackCode(payment: PaymentSettlement['payment']): string {
  if (payment.failure_code) return payment.failure_code;
  return payment.method === 'directdebit' ? 'MD06' : 'chargeback';
}

/** The follow-up a charge that was not made opened (kind mandate): solved when its payment turns out paid after all. */
async function solveMandateFollowUp(ctx: AppContext, trx: Knex.Transaction, charge: ChargeRow): Promise<void> {
  const followUp = await followUpsRepository.findByOriginKey(trx, charge.account_id, `mandate-${charge.id}`);
  if (followUp) await solve(ctx, trx, followUp, toDbDateTime(ctx.clock.now()));
}

async function onChargeSettled(ctx: AppContext, trx: Knex.Transaction, { payment, to }: PaymentSettlement): Promise<void> {
  if (!payment.purpose_id) return;
  const charge = await chargesRepository.find(trx, payment.account_id, payment.purpose_id);
  if (!charge) return;
  const now = toDbDateTime(ctx.clock.now());
  // `due` too: a payment whose answer was lost can settle before the charge records it.
  const link = { payment_id: payment.id, updated_at: now };
  if (to === 'paid') {
    // `not_charged` too: a payment given up as rejected that the provider made after all. The money
    // came, so the customer is no longer asked to pay by link.
    await chargesRepository.settle(trx, charge.account_id, charge.id, ['due', 'charged', 'not_charged'], {
      ...link,
      status: 'paid',
      claim_token: null,
      claimed_until: null,
    });
    if (charge.status === 'not_charged') await solveMandateFollowUp(ctx, trx, charge);
    // Only owed here: numbering it happens apart, and never undoes this payment's status.
    await oweInvoice(ctx, trx, payment, charge.id);
    return;
  }
  if (!UNPAID.has(to)) return;
  await chargesRepository.settle(trx, charge.account_id, charge.id, ['due', 'charged'], {
    ...link,
    status: 'failed',
    claim_token: null,
    claimed_until: null,
  });
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
  const code = chargebackCode(payment);
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
    reasonCode: code,
  });
  // The invoice of the payment is corrected by a credit note for what was taken back (and in the bookkeeping).
  await creditMoneyBack(ctx, trx, {
    accountId: payment.account_id,
    paymentId: payment.id,
    amount: chargedBack > 0 ? chargedBack : payment.amount,
    reason: 'chargeback',
    sourceKey: `chargeback-${payment.id}`,
  });
}

/** Billing and follow-ups listen to the payments they make (and chargebacks of any payment). */
export function registerBillingSettlement(ctx: AppContext): void {
  ctx.settlements.on(['charge'], (trx, settlement) => onChargeSettled(ctx, trx, settlement));
  ctx.settlements.on(['follow-up'], (trx, { payment, to }) => onRetrySettled(ctx, trx, payment, to));
  ctx.settlements.on(['link'], async (trx, { payment, to }) => {
    if (to === 'paid') await onLinkPaid(ctx, trx, payment);
  });
  ctx.settlements.on('all', async (trx, settlement) => {
    if (settlement.to === 'charged_back') await onChargedBack(ctx, trx, settlement);
  });
}

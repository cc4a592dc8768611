import type { Knex } from 'knex';
import type { AppContext } from '../../context';
import { toDbDateTime } from '../../time';
import type { PaymentSettlement } from '../payments/settlement';
import { UNPAID_STATUSES } from '../payments/transitions';
import { chargesRepository } from '../subscriptions/chargesRepository';
import { oweInvoice } from '../invoices/issuing';
import { creditMoneyBack } from '../invoices/moneyBack';

/**
 * A charge's payment settled: the charge records it. Paid, its invoice is owed; unpaid, it failed (the
 * follow-up that takes over is follow-ups' own handler, after this one: follow-ups/settlement.ts).
 */
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
    // Only owed here: numbering it happens apart, and never undoes this payment's status.
    await oweInvoice(ctx, trx, payment, charge.id);
    return;
  }
  if (!UNPAID_STATUSES.has(to)) return;
  await chargesRepository.settle(trx, charge.account_id, charge.id, ['due', 'charged'], {
    ...link,
    status: 'failed',
    claim_token: null,
    claimed_until: null,
  });
}

/**
 * Money taken back by the payer's bank or card issuer (any payment): the invoice of the payment is
 * corrected by a credit note for what was taken back — part of the payment, for a partial chargeback;
 * a provider that reports no amount took it all — and in the bookkeeping. The merchant's follow-up of
 * it is follow-ups' own handler.
 */
async function onChargedBack(ctx: AppContext, trx: Knex.Transaction, { payment }: PaymentSettlement): Promise<void> {
  const chargedBack = payment.amount_charged_back ?? 0;
  await creditMoneyBack(ctx, trx, {
    accountId: payment.account_id,
    paymentId: payment.id,
    amount: chargedBack > 0 ? chargedBack : payment.amount,
    reason: 'chargeback',
    sourceKey: `chargeback-${payment.id}`,
  });
}

/** Billing listens to the payments of its charges, and credits the invoice of any payment charged back. */
export function registerBillingSettlement(ctx: AppContext): void {
  ctx.settlements.on('fulfilment', ['charge'], (trx, settlement) => onChargeSettled(ctx, trx, settlement));
  ctx.settlements.on('invoices', 'all', async (trx, settlement) => {
    if (settlement.to === 'charged_back') await onChargedBack(ctx, trx, settlement);
  });
}

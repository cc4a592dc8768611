import type { Knex } from 'knex';
import type { AppContext } from '../../context';
import type { Account } from '../accounts/account';
import { newId } from '../../ids';
import { toDbDateTime } from '../../time';
import { chargesRepository, type ChargeRow } from './chargesRepository';
import { oweInvoice } from '../invoices/issuing';
import type { MandateRow } from '../mandates/repository';
import type { PaymentRow } from '../payments/repository';
import { enqueueSubscriptionEvent } from './events';
import { planOf } from './plan';
import { subscriptionsRepository, type SubscriptionRow } from './repository';
import type { CreateSubscriptionInput } from './requestSchemas';
import { effectiveRuleDay, scheduledCharge, startOfPaidFirstPeriod, timesDoneBefore } from './schedule';
import { newSubscription, type NewSubscription } from './service';

/**
 * A subscription whose first period a paid first payment paid (a subscription link without a trial,
 * a store checkout). That payment is charge 1 of the subscription: a rule's `times` counts it, so
 * `times: 12` means 12 payments in all — the first one and 11 charges.
 */
export interface PaidFirstPeriod extends NewSubscription {
  /** Charge 1, `paid` by the first payment: its row keeps the number taken and points at the payment. */
  paidCharge: ChargeRow;
}

/** The paid first payment, what of it paid this subscription's first period, and when (Y-m-d in APP_TIMEZONE). */
export interface FirstPayment {
  payment: Pick<PaymentRow, 'id' | 'currency'>;
  /** Cents: the whole payment for a link; a store checkout's share for this subscription. */
  amount: number;
  paidDate: string;
}

/**
 * The rows of such a subscription: it starts on the paid date (see startOfPaidFirstPeriod for the
 * one month-end exception), the first rule has one charge done, and the next charge is charge 2 of
 * the schedule — or, when the plan has no charge 2 (`times: 1`), it is `completed` at once.
 */
export function subscriptionPaidFirst(
  account: Pick<Account, 'id'>,
  input: Omit<CreateSubscriptionInput, 'start_date'>,
  mandate: MandateRow,
  first: FirstPayment,
  now: Date,
): PaidFirstPeriod {
  const { payment, amount, paidDate } = first;
  const [firstRule] = input.rules;
  if (!firstRule) throw new Error('A subscription needs at least one rule'); // the rules schema guarantees one
  const day = effectiveRuleDay(firstRule.interval, firstRule.day, paidDate);
  const startDate = startOfPaidFirstPeriod({ interval: firstRule.interval, interval_amount: firstRule.interval_amount, day }, paidDate);
  const made = newSubscription(account, { ...input, start_date: startDate }, mandate, now);
  const plan = planOf(made.row, made.rules);
  const second = scheduledCharge(plan, 2);
  const done = timesDoneBefore(plan, 2);
  const rules = made.rules.map((rule, index) => ({ ...rule, times_done: done[index] ?? 0 }));
  const [chargedRule] = rules;
  if (!chargedRule) throw new Error('A subscription needs at least one rule');
  const row: SubscriptionRow = {
    ...made.row,
    status: second ? made.row.status : 'completed',
    next_charge_number: 2,
    next_charge_date: second?.date ?? null,
    next_payment_at: second?.date ?? null,
    next_amount: second?.amount ?? null,
  };
  const stamp = toDbDateTime(now);
  const paidCharge: ChargeRow = {
    id: newId('chg'),
    account_id: row.account_id,
    subscription_id: row.id,
    charge_number: 1,
    rule_id: chargedRule.id,
    due_date: paidDate,
    amount,
    currency: payment.currency,
    status: 'paid',
    payment_id: payment.id,
    claim_token: null,
    claimed_until: null,
    attempts: 0,
    last_error: null,
    created_at: stamp,
    updated_at: stamp,
  };
  return { row, rules, invoiceRules: made.invoiceRules, paidCharge };
}

/**
 * Writes such a subscription in the paid payment's settlement transaction: the subscription, its
 * rules, charge 1 and — when charge 1 was the first rule's regular amount — its invoice owed, as every
 * paid charge of that rule gets one. (A link's `first_amount` of another amount is not what the
 * rule's invoice lines describe, so it gets none.) `extra` are columns the caller keys the
 * subscription by (a store order's origin).
 */
export async function insertPaidFirst(
  ctx: AppContext,
  trx: Knex.Transaction,
  made: PaidFirstPeriod,
  payment: PaymentRow,
  extra: Partial<SubscriptionRow> = {},
): Promise<void> {
  const row = { ...made.row, ...extra };
  await subscriptionsRepository.insertWithRules(trx, row, made.rules, made.invoiceRules);
  await chargesRepository.insertNew(trx, [made.paidCharge]);
  if (made.paidCharge.amount === made.rules[0]?.amount) await oweInvoice(ctx, trx, payment, made.paidCharge.id);
  if (row.status === 'completed') await enqueueSubscriptionEvent(trx, row, 'completed', made.paidCharge.created_at);
}

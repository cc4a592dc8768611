import type { Knex } from 'knex';
import type { Account } from '../accounts/account';
import { ValidationError } from '../../errors';
import { newId } from '../../ids';
import { formatDate, formatNullableDate } from '../../time';
import { planOf } from './plan';
import { subscriptionsRepository, type SubscriptionRow, type SubscriptionRuleRow } from './repository';
import type { CreateSubscriptionRuleInput } from './requestSchemas';
import { chargeDateAfter, effectiveRuleDay, scheduledCharge, timesDoneBefore } from './schedule';
import { invoiceRuleRowsFrom } from './invoiceRuleRows';

const CURRENCY = 'EUR';
const FAILED = 'Could not update subscription. Some fields contain invalid data';

/**
 * Replaces a subscription's rules from its next period not planned yet (`next_charge_number`) on,
 * inside the caller's transaction; answers the new `next_charge_date`.
 *
 * The periods already planned (charged, skipped, or due and waiting) keep their dates and amounts:
 * each old rule that planned some is ended after them (`times` = what it did), the ones that planned
 * none are removed. The new rules describe the whole plan: the planned periods count against their
 * `times` in order (a rule of 12 times after 4 periods runs 8 more; rules used up are left out), and
 * the first of them starts where the last planned period ends, so nothing already charged moves.
 */
export async function replaceRulesFromNextPeriod(
  trx: Knex.Transaction,
  account: Pick<Account, 'id'>,
  row: SubscriptionRow,
  input: { rules: CreateSubscriptionRuleInput[] },
): Promise<string | null> {
  const old = [...(await subscriptionsRepository.rulesOf(trx, row.account_id, [row.id]))].sort((a, b) => a.position - b.position);
  const oldPlan = planOf(row, old);
  const planned = row.next_charge_number - 1;
  const done = timesDoneBefore(oldPlan, row.next_charge_number);
  const kept = old.filter((_, index) => (done[index] ?? 0) > 0);
  const lastPlanned = planned > 0 ? scheduledCharge(oldPlan, planned) : null;
  const lastRule = lastPlanned ? (old[lastPlanned.ruleIndex] as SubscriptionRuleRow) : null;
  const newStart = lastPlanned && lastRule ? chargeDateAfter(lastRule, lastPlanned.date) : formatDate(row.start_date);

  let left = planned;
  const remaining: Array<{ rule: CreateSubscriptionRuleInput; times: number | null }> = [];
  for (const rule of input.rules) {
    const times = rule.times ?? null;
    if (times === null) {
      remaining.push({ rule, times: null });
      left = 0;
      continue;
    }
    const used = Math.min(times, left);
    left -= used;
    if (times - used > 0) remaining.push({ rule, times: times - used });
  }
  if (!remaining.length) {
    throw new ValidationError(FAILED, {
      rules: [`The rules must leave at least one charge after the ${planned} periods already planned.`],
    });
  }

  const basePosition = kept.length ? Math.max(...kept.map((rule) => rule.position)) + 1 : 0;
  const rows: SubscriptionRuleRow[] = remaining.map(({ rule, times }, index) => ({
    id: newId('rul'),
    account_id: account.id,
    subscription_id: row.id,
    position: basePosition + index,
    amount: rule.amount,
    currency: CURRENCY,
    interval: rule.interval,
    interval_amount: rule.interval_amount,
    day: effectiveRuleDay(rule.interval, rule.day, newStart),
    times,
    times_done: 0,
  }));
  await subscriptionsRepository.deleteRules(
    trx,
    row.account_id,
    old.filter((rule) => !kept.includes(rule)).map((rule) => rule.id),
  );
  for (const [index, rule] of old.entries()) {
    const times = done[index] ?? 0;
    if (times > 0) await subscriptionsRepository.endRuleAfter(trx, rule, times);
  }
  await subscriptionsRepository.insertRules(trx, rows, invoiceRuleRowsFrom(account, rows, { rules: remaining.map(({ rule }) => rule) }));

  const newRules = [...kept.map((rule) => ({ ...rule, times: done[old.indexOf(rule)] ?? 0 })), ...rows];
  const next = scheduledCharge(planOf(row, newRules), row.next_charge_number);
  const cancelAt = formatNullableDate(row.cancel_at);
  return next !== null && (cancelAt === null || next.date < cancelAt) ? next.date : null;
}

import type { Knex } from 'knex';
import type { AppContext } from '../../context';
import { retryDeadlocks } from '../../db/deadlocks';
import { newId } from '../../ids';
import { formatNullableDate, toDbDateTime } from '../../time';
import { pausesRepository } from './pausesRepository';
import { subscriptionsRepository, type SubscriptionRow, type SubscriptionRuleRow } from './repository';
import { chargesDueBy, fateOf, nextCharged, scheduledCharge, timesDoneBefore, type PausePeriod } from './schedule';
import { chargesRepository, type ChargeRow } from './chargesRepository';
import { planOf } from './plan';
import { enqueueSubscriptionEvent } from './events';
import { errorMessage } from '../../errors';

/** Subscriptions planned per query: small enough to keep each transaction short. */
const PAGE = 200;

/**
 * Writes the charge rows of one subscription that are due on or before `date`, from its next
 * charge number on, and moves the subscription past them — in one transaction. The rows are keyed
 * by (subscription, charge number), so a second planner (another instance, a retried run) inserts
 * nothing new, and the subscription only moves if nobody moved it first.
 */
/** What planning wrote: charge rows to be made, and rows skipped at once (dated in a paused period). */
export interface Planned {
  due: number;
  skipped: number;
}

/** The pauses, skips or rules a plan was made from changed before it was written: it is made again. */
class StalePlan extends Error {}

export async function planSubscription(
  ctx: AppContext,
  subscription: SubscriptionRow,
  rules: SubscriptionRuleRow[],
  date: string,
): Promise<Planned> {
  let current = rules;
  for (let tries = 0; ; tries += 1) {
    try {
      return await planOnce(ctx, subscription, current, date);
    } catch (error) {
      if (!(error instanceof StalePlan) || tries >= 4) throw error;
      current = await subscriptionsRepository.rulesOf(ctx.db, subscription.account_id, [subscription.id]);
    }
  }
}

/** What a plan depends on besides the subscription's row, comparable as text. */
function inputsOf(rules: readonly SubscriptionRuleRow[], pauses: readonly PausePeriod[]): string {
  const sorted = [...rules].sort((a, b) => a.position - b.position);
  return JSON.stringify([
    sorted.map((rule) => [rule.id, rule.amount, rule.interval, rule.interval_amount, rule.day, rule.times]),
    pauses.map((pause) => [pause.from, pause.until]),
  ]);
}

async function planOnce(ctx: AppContext, subscription: SubscriptionRow, rules: SubscriptionRuleRow[], date: string): Promise<Planned> {
  const plan = planOf(subscription, rules);
  const pauses = await pausesRepository.periodsOf(ctx.db, subscription.account_id, subscription.id);
  const cancelAt = formatNullableDate(subscription.cancel_at);
  const now = toDbDateTime(ctx.clock.now());
  const inOrder = [...rules].sort((a, b) => a.position - b.position);
  const rows: ChargeRow[] = [];
  let ended = false;
  for (const charge of chargesDueBy(plan, subscription.next_charge_number, date)) {
    const fate = fateOf(charge.date, pauses, cancelAt);
    if (fate === 'ended') {
      ended = true;
      break;
    }
    const rule = inOrder[charge.ruleIndex] as SubscriptionRuleRow;
    rows.push({
      id: newId('chg'),
      account_id: subscription.account_id,
      subscription_id: subscription.id,
      charge_number: charge.number,
      rule_id: rule.id,
      due_date: charge.date,
      amount: charge.amount,
      currency: subscription.currency,
      status: fate === 'skip' ? 'skipped' : 'due',
      payment_id: null,
      claim_token: null,
      claimed_until: null,
      attempts: 0,
      last_error: null,
      created_at: now,
      updated_at: now,
    });
  }
  const next = subscription.next_charge_number + rows.length;
  const following = ended ? null : scheduledCharge(plan, next);
  // A charge on or after the cancellation is never planned: nothing is left for billing to read.
  const planNext = following !== null && (cancelAt === null || following.date < cancelAt) ? following.date : null;
  const upcoming = ended ? null : nextCharged(plan, next, pauses, cancelAt);
  const completed = !ended && following === null && subscription.status !== 'cancelled';
  // The subscription is moved first: its row lock makes a second planner wait, then find it moved
  // and write nothing, instead of both inserting the same charge rows (which deadlocks on MySQL).
  return retryDeadlocks(() =>
    ctx.db.transaction(async (trx): Promise<Planned> => {
      // Its status too: a resume or pause that came in since the pauses were read makes this plan stale.
      const moved = await subscriptionsRepository.updateIfUnchanged(trx, subscription, {
        next_charge_number: next,
        next_charge_date: planNext,
        next_payment_at: upcoming?.date ?? null,
        next_amount: upcoming?.amount ?? null,
        ...(completed ? { status: 'completed' as const } : {}),
        updated_at: now,
      });
      if (!moved) return { due: 0, skipped: 0 }; // another planner was first: its rows and its move stand
      // A skip or a change of rules (which take this row first, as this did) made since they were read:
      // read under the row's lock, they are as they will stay until this commits.
      const pausesNow = await pausesRepository.periodsOf(trx, subscription.account_id, subscription.id);
      const rulesNow = await subscriptionsRepository.rulesOf(trx, subscription.account_id, [subscription.id]);
      if (inputsOf(rulesNow, pausesNow) !== inputsOf(rules, pauses)) throw new StalePlan();
      await chargesRepository.insertNew(trx, rows);
      await recordTimesDone(trx, rules, timesDoneBefore(plan, next));
      if (completed) await enqueueSubscriptionEvent(trx, subscription, 'completed', now);
      const skipped = rows.filter((row) => row.status === 'skipped').length;
      return { due: rows.length - skipped, skipped };
    }),
  );
}

async function recordTimesDone(trx: Knex.Transaction, rules: SubscriptionRuleRow[], done: number[]): Promise<void> {
  const sorted = [...rules].sort((a, b) => a.position - b.position);
  for (const [index, rule] of sorted.entries()) {
    const times = done[index] ?? 0;
    if (rule.times_done !== times) await subscriptionsRepository.setTimesDone(trx, rule, times);
  }
}

/**
 * Plans every active or paused subscription with a charge due on or before `date`, across accounts,
 * page by page. A failure of one subscription is logged and does not stop the others.
 */
export async function planDueCharges(ctx: AppContext, date: string, signal?: AbortSignal): Promise<Planned & { failed: number }> {
  const planned = { due: 0, skipped: 0, failed: 0 };
  let afterSeq = 0;
  for (;;) {
    if (signal?.aborted) break;
    // A cancelled one too, for charges due before its cancellation that were not planned yet (billing was down).
    const page = await subscriptionsRepository.dueForPlanning(ctx.db, {
      statuses: ['active', 'paused', 'cancelled'],
      date,
      afterSeq,
      limit: PAGE,
    });
    if (!page.length) break;
    afterSeq = Number((page[page.length - 1] as { seq: number }).seq);
    const rules = await subscriptionsRepository.rulesOfSubscriptions(
      ctx.db,
      page.map((row) => row.id),
    );
    for (const subscription of page) {
      try {
        const written = await planSubscription(
          ctx,
          subscription,
          rules.filter((rule) => rule.subscription_id === subscription.id),
          date,
        );
        planned.due += written.due;
        planned.skipped += written.skipped;
      } catch (error) {
        planned.failed += 1;
        ctx.logger.error('subscription charges could not be planned', {
          accountId: subscription.account_id,
          subscriptionId: subscription.id,
          error: errorMessage(error),
        });
      }
    }
  }
  return planned;
}

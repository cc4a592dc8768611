import type { AppContext } from '../../context';
import { formatNullableDate, toDbDateTime } from '../../time';
import { enqueueSubscriptionEvent } from '../subscriptions/events';
import { pausesRepository } from '../subscriptions/pausesRepository';
import { planOf } from '../subscriptions/plan';
import { subscriptionsRepository, type SubscriptionRow } from '../subscriptions/repository';
import { nextCharged, scheduledCharge, timesDoneBefore, type ScheduledCharge } from '../subscriptions/schedule';

/**
 * Moves an imported subscription past every period its source charged itself since ours was made
 * (the import run again late: the source billed a period ours was to bill; `following` is the charge
 * after the one asked about, or null), as billing's planner
 * moves past a charge it made: the next charge's number, dates and amount, and each rule's
 * `times_done`; none left and ours is completed. Ours is still handover_pending (billing planned
 * none of its charges), so no charge row stands in the way. Answers ours as it now is.
 */
export async function moveOursPast(
  ctx: AppContext,
  ours: SubscriptionRow,
  chargedBySource: (charge: ScheduledCharge, following: ScheduledCharge | null) => boolean,
): Promise<SubscriptionRow> {
  const rules = await subscriptionsRepository.rulesOf(ctx.db, ours.account_id, [ours.id]);
  const plan = planOf(ours, rules);
  let next = ours.next_charge_number;
  for (
    let charge = scheduledCharge(plan, next);
    charge && chargedBySource(charge, scheduledCharge(plan, next + 1));
    charge = scheduledCharge(plan, next)
  ) {
    next += 1;
  }
  if (next === ours.next_charge_number) return ours;
  const pauses = await pausesRepository.periodsOf(ctx.db, ours.account_id, ours.id);
  const following = scheduledCharge(plan, next);
  const upcoming = nextCharged(plan, next, pauses, formatNullableDate(ours.cancel_at));
  const completed = following === null && ours.status !== 'cancelled';
  const now = toDbDateTime(ctx.clock.now());
  const changes: Partial<SubscriptionRow> = {
    next_charge_number: next,
    next_charge_date: following?.date ?? null,
    next_payment_at: upcoming?.date ?? null,
    next_amount: upcoming?.amount ?? null,
    ...(completed ? { status: 'completed' as const } : {}),
    updated_at: now,
  };
  await ctx.db.transaction(async (trx) => {
    // From the row as read: a second run moving it at the same time finds it moved and leaves it.
    if (!(await subscriptionsRepository.updateIfUnchanged(trx, ours, changes))) return;
    const done = timesDoneBefore(plan, next);
    for (const [index, rule] of [...rules].sort((a, b) => a.position - b.position).entries()) {
      if (rule.times_done !== (done[index] ?? 0)) await subscriptionsRepository.setTimesDone(trx, rule, done[index] ?? 0);
    }
    if (completed) await enqueueSubscriptionEvent(trx, ours, 'completed', now);
  });
  return { ...ours, ...changes };
}

import type { Account, AppContext } from '../../context';
import type { PaymentProvider } from '../../providers';
import type { ProviderSubscription } from '../../providers/types';
import { calendarDateIn, formatNullableDate, toDbDateTime } from '../../time';
import { customersRepository } from '../customers/repository';
import { enqueueSubscriptionEvent } from '../subscriptions/events';
import { pausesRepository } from '../subscriptions/pausesRepository';
import { planOf } from '../subscriptions/plan';
import { subscriptionsRepository, type SubscriptionRow } from '../subscriptions/repository';
import { nextCharged, scheduledCharge, timesDoneBefore, type ScheduledCharge } from '../subscriptions/schedule';
import type { HandOver, ImportCandidate } from './sources';

/**
 * Whether charge `charge` of ours is one Mollie charged (or charges on its daily run today, or on a
 * day it is behind on): counted by Mollie's own number when it has a length, and by date, for it
 * charges every period on or before today from its next payment date on.
 */
function chargedAtMollie(charge: ScheduledCharge, mollie: ProviderSubscription, today: string): boolean {
  const madeAtMollie = mollie.times !== null ? mollie.times - (mollie.timesRemaining ?? 0) : null;
  if (madeAtMollie !== null && charge.number <= madeAtMollie) return true;
  if (mollie.status !== 'active' || mollie.nextPaymentDate === null) return false;
  return charge.date < mollie.nextPaymentDate || (mollie.nextPaymentDate <= today && charge.date <= today);
}

/**
 * Moves ours past every period Mollie charged or charges itself (the import run again late: Mollie
 * billed a period ours was to bill), as billing's planner moves past a charge it made: the next
 * charge's number, dates and amount, and each rule's `times_done`; none left and ours is completed.
 * Ours is pending (billing planned none of its charges), so no charge row stands in the way.
 * Answers ours as it now is.
 */
async function moveOursPast(ctx: AppContext, ours: SubscriptionRow, mollie: ProviderSubscription, today: string): Promise<SubscriptionRow> {
  const rules = await subscriptionsRepository.rulesOf(ctx.db, ours.account_id, [ours.id]);
  const plan = planOf(ours, rules);
  let next = ours.next_charge_number;
  for (let charge = scheduledCharge(plan, next); charge && chargedAtMollie(charge, mollie, today); charge = scheduledCharge(plan, next)) {
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

const firstOf = (ours: SubscriptionRow) => formatNullableDate(ours.next_payment_at) ?? 'none: its charges were all made at Mollie';

/**
 * Stops Mollie's subscription once ours holds the next charge, in the order that never charges a period
 * twice nor skips one. Mollie's subscription is read again (the run may come days after ours was made).
 * Canceled or completed there: nothing more is billed there. Due today or earlier there: Mollie makes
 * that charge on its daily run, ours starts after it, and the hand-over waits until Mollie has made it
 * (its next payment date moved on) before canceling it; a later run finishes. Any period Mollie charged
 * since ours was made is taken out of ours first. A lost answer to the cancel throws: the row fails on
 * `handover`, ours stays pending, and the next run finds Mollie's canceled (the cancel is safe to repeat).
 */
export async function handOverMollieSubscription(
  ctx: AppContext,
  account: Account,
  provider: PaymentProvider,
  candidate: ImportCandidate,
  subscription: SubscriptionRow,
): Promise<HandOver> {
  const customer = await customersRepository.find(ctx.db, account.id, subscription.customer_id);
  const mollieCustomerId = customer?.provider_customer_id;
  if (!mollieCustomerId) throw new Error('Our customer is not linked to a Mollie customer.');
  const mollie = (await provider.listSubscriptions(mollieCustomerId)).find((listed) => listed.id === candidate.sourceId);
  if (!mollie) return { done: true, note: 'Mollie no longer lists the subscription: it bills it no more' };
  const today = calendarDateIn(ctx.clock.now(), ctx.config.APP_TIMEZONE);
  const ours = await moveOursPast(ctx, subscription, mollie, today);
  const moved = ours.next_charge_number !== subscription.next_charge_number;
  const from = moved ? `Mollie charged up to it, so ours now starts ${firstOf(ours)}` : `ours starts ${firstOf(ours)}`;
  if (mollie.status === 'canceled' || mollie.status === 'completed') return { done: true, note: `${mollie.status} at Mollie; ${from}` };
  if (mollie.nextPaymentDate !== null && mollie.nextPaymentDate <= today) {
    return {
      done: false,
      note:
        `Mollie charges the period of ${mollie.nextPaymentDate} itself (due today or earlier), ${from}; ` +
        'run the import again once Mollie has made that charge, to cancel it there',
    };
  }
  await provider.cancelSubscription(mollieCustomerId, mollie.id);
  return { done: true, note: `canceled at Mollie; ${from}` };
}

import type { Knex } from 'knex';
import type { AppContext } from '../../context';
import type { Account } from '../accounts/account';
import { NotFoundError, ValidationError } from '../../errors';
import { newId } from '../../ids';
import { formatDate, formatNullableDate, todayIn, toDbDateTime } from '../../time';
import { enqueueStoreSubscriptionEvent } from '../../events/storeEvents';
import { chargesRepository } from './chargesRepository';
import { enqueueSubscriptionEvent, enqueueSubscriptionUpdated } from './events';
import { pausesRepository } from './pausesRepository';
import { subscriptionsRepository, type SubscriptionRow } from './repository';
import { planOf } from './plan';
import { fateOf, nextCharged, type PausePeriod } from './schedule';

/** Statuses from which a subscription can still be charged (or become chargeable). */
export const LIVE: ReadonlySet<SubscriptionRow['status']> = new Set(['draft', 'active', 'paused']);

/**
 * next_payment_at / next_amount as pauses and cancellation now leave them: the next charge actually
 * made. A charge row still due, dated `today` or later, comes before the unplanned ones (a resume
 * made today's skipped charge due again); due rows of earlier days are late retries, not "next".
 */
async function upcomingCharge(
  trx: Knex,
  subscription: SubscriptionRow,
  today: string,
): Promise<Pick<SubscriptionRow, 'next_payment_at' | 'next_amount'>> {
  const rules = await subscriptionsRepository.rulesOf(trx, subscription.account_id, [subscription.id]);
  const pauses = await pausesRepository.periodsOf(trx, subscription.account_id, subscription.id);
  const cancelAt = formatNullableDate(subscription.cancel_at);
  const planned = await chargesRepository.dueFrom(trx, subscription, today);
  const due = planned.find((row) => fateOf(formatDate(row.due_date), pauses, cancelAt) === 'charge');
  if (due) return { next_payment_at: formatDate(due.due_date), next_amount: due.amount };
  const next = nextCharged(planOf(subscription, rules), subscription.next_charge_number, pauses, cancelAt);
  return { next_payment_at: next?.date ?? null, next_amount: next?.amount ?? null };
}

async function requireSubscription(ctx: AppContext, account: Account, id: string): Promise<SubscriptionRow> {
  const row = await subscriptionsRepository.find(ctx.db, account.id, id);
  if (!row) throw new NotFoundError('Subscription');
  return row;
}

/**
 * Who asked for a change, and what must commit with it. The API's own calls pass nothing; the
 * portal names itself (the merchant learns that the customer did it) and queues its confirmation.
 */
export interface ChangeOrigin {
  /** Named in the change's event as `"via"`. */
  via?: 'portal';
  /** Runs last in the change's transaction, with the subscription as it now is (a confirmation mail). */
  confirm?: (trx: Knex.Transaction, after: SubscriptionRow) => Promise<unknown>;
}

/** What an origin adds to an event's body. */
export const viaOf = (origin: ChangeOrigin): Record<string, string> => (origin.via ? { via: origin.via } : {});

export function refuse(message: string, field: string, reason: string): never {
  throw new ValidationError(message, { [field]: [reason] });
}

/**
 * Changes one subscription in a transaction, only if it is still as `before` (its status and
 * next charge number): a billing run or another request that changed it first makes this retry.
 * The subscription's row is taken first, as billing takes it before it plans or skips a charge, so
 * the two never interleave (a charge skipped by a run while a resume frees it).
 */
export async function change(
  ctx: AppContext,
  before: SubscriptionRow,
  apply: (trx: Knex.Transaction, now: string) => Promise<Partial<SubscriptionRow>>,
  origin: ChangeOrigin = {},
): Promise<SubscriptionRow> {
  const now = toDbDateTime(ctx.clock.now());
  await ctx.db.transaction(async (trx) => {
    const taken = await subscriptionsRepository.updateIfUnchanged(trx, before, { updated_at: now });
    if (!taken) throw new ConcurrentChange();
    const changes = await apply(trx, now);
    await subscriptionsRepository.update(trx, before, { ...changes, updated_at: now });
    const after = { ...before, ...changes };
    const upcoming = await upcomingCharge(trx, after, todayIn(ctx));
    await subscriptionsRepository.update(trx, before, upcoming);
    if (origin.confirm) await origin.confirm(trx, { ...after, ...upcoming, updated_at: now });
  });
  return (await subscriptionsRepository.find(ctx.db, before.account_id, before.id)) as SubscriptionRow;
}

class ConcurrentChange extends Error {}

export async function withRetry(
  ctx: AppContext,
  account: Account,
  id: string,
  attempt: (row: SubscriptionRow) => Promise<SubscriptionRow>,
): Promise<SubscriptionRow> {
  for (let tries = 0; ; tries += 1) {
    try {
      return await attempt(await requireSubscription(ctx, account, id));
    } catch (error) {
      if (!(error instanceof ConcurrentChange) || tries >= 4) throw error;
    }
  }
}

/**
 * `DELETE /api/v2/subscriptions/{id}` (extension): no charge on or after `cancel_at`; the status
 * becomes `cancelled` on that date (today when absent or past). Cancelling again only moves a
 * future date (the same date again changes nothing and sends no event); a cancelled or completed
 * subscription stays as it is. A cancellation dated later
 * that the customer made in the portal is told to the merchant at once (`subscription.updated`,
 * changes `cancel_at`), as the merchant did not make it; `subscription.cancelled` follows on the date.
 */
export function cancelSubscription(
  ctx: AppContext,
  account: Account,
  id: string,
  cancelAt: string | undefined,
  origin: ChangeOrigin & { reason?: string | null } = {},
): Promise<SubscriptionRow> {
  return withRetry(ctx, account, id, async (row) => {
    if (!LIVE.has(row.status)) return row;
    const on = cancelAt && cancelAt > todayIn(ctx) ? cancelAt : todayIn(ctx);
    // The same cancellation again (the store mirrors back the one it heard of): nothing changes, nobody is told twice.
    if (row.cancel_at && formatDate(row.cancel_at) === on) return row;
    const now = on === todayIn(ctx);
    const reason = origin.reason ? { cancel_reason: origin.reason } : {};
    const told = { ...viaOf(origin), ...(origin.reason ? { reason: origin.reason } : {}) };
    return change(
      ctx,
      row,
      async (trx, stamp) => {
        if (now) await enqueueSubscriptionEvent(trx, row, 'cancelled', stamp, { cancel_at: on, ...told });
        else if (origin.via) await enqueueSubscriptionUpdated(trx, row, ['cancel_at'], stamp, { cancel_at: on, ...told });
        // The store hears of the cancellation when it is made, dated or not: its mail confirms the request.
        await enqueueStoreSubscriptionEvent(trx, row, 'cancelled', stamp, { cancel_at: on, ...viaOf(origin) });
        if (!now) return { cancel_at: on, ...reason };
        const plannedBefore = row.next_charge_date !== null && formatDate(row.next_charge_date) < on ? row.next_charge_date : null;
        return { status: 'cancelled', cancel_at: on, next_charge_date: plannedBefore, ...reason };
      },
      origin,
    );
  });
}

/**
 * `POST /api/v2/subscriptions/{id}/pause` (extension): from today, charges are skipped — not made
 * up later — until `resume_at` (exclusive) or until resumed. The same pause of a paused subscription
 * again (the same `resume_at`, or none) changes nothing and sends no event; another one is refused.
 */
export function pauseSubscription(
  ctx: AppContext,
  account: Account,
  id: string,
  resumeAt: string | undefined,
  origin: ChangeOrigin = {},
): Promise<SubscriptionRow> {
  return withRetry(ctx, account, id, async (row) => {
    // The same pause again (the store mirrors back the one it heard of): nothing changes, nobody is told twice.
    if (row.status === 'paused' && formatNullableDate(row.resume_at) === (resumeAt ?? null)) return row;
    if (row.status !== 'active') refuse('Could not pause subscription', 'status', `A subscription that is ${row.status} cannot be paused.`);
    const from = todayIn(ctx);
    if (resumeAt !== undefined && resumeAt <= from)
      refuse('Could not pause subscription', 'resume_at', 'The resume at field must be a date after today.');
    return change(
      ctx,
      row,
      async (trx, stamp) => {
        await pausesRepository.insert(trx, {
          id: newId('pau'),
          account_id: row.account_id,
          subscription_id: row.id,
          from_date: from,
          until_date: resumeAt ?? null,
          created_at: stamp,
        });
        await enqueueSubscriptionEvent(trx, row, 'paused', stamp, { resume_at: resumeAt ?? null, ...viaOf(origin) });
        await enqueueStoreSubscriptionEvent(trx, row, 'paused', stamp, { resume_at: resumeAt ?? null, ...viaOf(origin) });
        return { status: 'paused', resume_at: resumeAt ?? null };
      },
      origin,
    );
  });
}

/** `POST /api/v2/subscriptions/{id}/resume` (extension): charges dated today or later are made again. */
export function resumeSubscription(ctx: AppContext, account: Account, id: string, origin: ChangeOrigin = {}): Promise<SubscriptionRow> {
  return withRetry(ctx, account, id, async (row) => {
    if (row.status !== 'paused')
      refuse('Could not resume subscription', 'status', `A subscription that is ${row.status} cannot be resumed.`);
    return change(ctx, row, (trx, stamp) => resumeIn(trx, row, todayIn(ctx), stamp, origin), origin);
  });
}

async function resumeIn(
  trx: Knex.Transaction,
  row: SubscriptionRow,
  on: string,
  stamp: string,
  origin: ChangeOrigin,
): Promise<Partial<SubscriptionRow>> {
  const paused = await pausesRepository.periodsOf(trx, row.account_id, row.id);
  await pausesRepository.endOpen(trx, row.account_id, row.id, on);
  const revived = await reviveSkippedCharges(trx, row, paused, stamp);
  await enqueueSubscriptionEvent(trx, row, 'resumed', stamp, viaOf(origin));
  await enqueueStoreSubscriptionEvent(trx, row, 'resumed', stamp, viaOf(origin));
  // next_charge_date back on the first revived charge: the run that makes it then passes this
  // subscription in its planning, which moves next_payment_at past it as for every charge it plans.
  const replan = revived !== null && (row.next_charge_date === null || revived < formatDate(row.next_charge_date));
  return { status: 'active', resume_at: null, ...(replan ? { next_charge_date: revived } : {}) };
}

/**
 * The morning's run may have skipped a charge dated today (or a run ahead of time, later ones) while
 * the subscription was paused: those the pause skipped and the resume frees (skipped under the
 * pauses before, charged under the pauses after, so never one dated before the resume) become due
 * again, and the next run makes them. The row keeps its id, so its payment's origin key, and with it
 * the one payment a charge may have, stays the same. Gives the first one's date, or null.
 */
async function reviveSkippedCharges(
  trx: Knex.Transaction,
  row: SubscriptionRow,
  pausedBefore: PausePeriod[],
  stamp: string,
): Promise<string | null> {
  const pausesAfter = await pausesRepository.periodsOf(trx, row.account_id, row.id);
  const cancelAt = formatNullableDate(row.cancel_at);
  const skipped = await chargesRepository.skippedOf(trx, row);
  const freed = skipped.filter((charge) => {
    const date = formatDate(charge.due_date);
    return fateOf(date, pausedBefore, cancelAt) === 'skip' && fateOf(date, pausesAfter, cancelAt) === 'charge';
  });
  const first = freed[0];
  if (!first) return null;
  await chargesRepository.makeDueAgain(
    trx,
    row.account_id,
    freed.map((charge) => charge.id),
    stamp,
  );
  return formatDate(first.due_date);
}

/**
 * Pauses a subscription without end for the service itself (a follow-up that failed, with the
 * account's on-failure action `pause`), inside the caller's transaction.
 */
export async function pauseIn(
  trx: Knex.Transaction,
  row: Pick<SubscriptionRow, 'id' | 'account_id'>,
  from: string,
  stamp: string,
): Promise<void> {
  const moved = await subscriptionsRepository.updateIfInStatus(trx, row, 'active', {
    status: 'paused',
    resume_at: null,
    updated_at: stamp,
  });
  if (!moved) return;
  await pausesRepository.insert(trx, {
    id: newId('pau'),
    account_id: row.account_id,
    subscription_id: row.id,
    from_date: from,
    until_date: null,
    created_at: stamp,
  });
  await subscriptionsRepository.update(trx, row, { next_payment_at: null, next_amount: null });
  await enqueueSubscriptionEvent(trx, row, 'paused', stamp, { resume_at: null });
}

/** Cancels a subscription today for the service itself (on-failure action `cancel`), inside the caller's transaction. */
export async function cancelIn(
  trx: Knex.Transaction,
  row: Pick<SubscriptionRow, 'id' | 'account_id'>,
  on: string,
  stamp: string,
): Promise<void> {
  const moved = await subscriptionsRepository.updateIfInStatuses(trx, row, [...LIVE], {
    status: 'cancelled',
    cancel_at: on,
    next_charge_date: subscriptionsRepository.nextChargeDateBefore(trx, on),
    next_payment_at: null,
    next_amount: null,
    updated_at: stamp,
  });
  if (moved) await enqueueSubscriptionEvent(trx, row, 'cancelled', stamp, { cancel_at: on });
}

/**
 * The changes whose date has come (run by billing before it charges): cancellations dated today or
 * earlier take effect, pauses whose `resume_at` has come end. Each is a conditional update, so two
 * instances doing this at once change each subscription once.
 */
export async function applyDueStateChanges(ctx: AppContext, date: string): Promise<{ cancelled: number; resumed: number }> {
  const stamp = toDbDateTime(ctx.clock.now());
  let cancelled = 0;
  let resumed = 0;
  const cancelling = await subscriptionsRepository.dueToCancel(ctx.db, [...LIVE], date);
  for (const row of cancelling) {
    await ctx.db.transaction(async (trx) => {
      const moved = await subscriptionsRepository.updateIfInStatus(trx, row, row.status, {
        status: 'cancelled',
        next_charge_date: subscriptionsRepository.nextChargeDateBefore(trx, formatDate(String(row.cancel_at))),
        next_payment_at: null,
        next_amount: null,
        updated_at: stamp,
      });
      if (moved) {
        cancelled += 1;
        await enqueueSubscriptionEvent(trx, row, 'cancelled', stamp, { cancel_at: formatNullableDate(row.cancel_at) });
      }
    });
  }
  const resuming = await subscriptionsRepository.dueToResume(ctx.db, date);
  for (const row of resuming) {
    await ctx.db.transaction(async (trx) => {
      const moved = await subscriptionsRepository.updateIfInStatus(trx, row, 'paused', {
        status: 'active',
        resume_at: null,
        updated_at: stamp,
      });
      if (!moved) return;
      resumed += 1;
      await enqueueSubscriptionEvent(trx, row, 'resumed', stamp);
      await subscriptionsRepository.update(trx, row, await upcomingCharge(trx, { ...row, status: 'active', resume_at: null }, date));
    });
  }
  return { cancelled, resumed };
}

import type { AppContext } from '../../context';
import type { Account } from '../accounts/account';
import { PROVIDER_SUBSCRIPTIONS_IMPORT, type PaymentProvider } from '../../providers';
import type { ProviderSubscription } from '../../providers/types';
import { calendarDateIn, formatNullableDate, fromDbDateTime, toDbDateTime } from '../../time';
import { enqueueAccountEvent } from '../../events/events';
import { customersRepository } from '../customers/repository';
import type { SubscriptionRow } from '../subscriptions/repository';
import type { ScheduledCharge } from '../subscriptions/schedule';
import { importHandOversRepository, type HandOverKey } from './handOversRepository';
import { moveOursPast } from './movePast';
import type { HandOver, ImportCandidate } from './sources';

/** The provider that bills these subscriptions, as the reports name it. */
const BILLER = PROVIDER_SUBSCRIPTIONS_IMPORT.billerName;

/**
 * Whether charge `charge` of ours is one the provider charged (or charges on its daily run today, or on
 * a day it is behind on): counted by the provider's own number when it has a length, and by date, for
 * it charges every period on or before today from its next payment date on.
 */
function chargedAtProvider(charge: ScheduledCharge, theirs: ProviderSubscription, today: string): boolean {
  const madeThere = theirs.times !== null ? theirs.times - (theirs.timesRemaining ?? 0) : null;
  if (madeThere !== null && charge.number <= madeThere) return true;
  if (theirs.status !== 'active' || theirs.nextPaymentDate === null) return false;
  return charge.date < theirs.nextPaymentDate || (theirs.nextPaymentDate <= today && charge.date <= today);
}

const firstOf = (ours: SubscriptionRow) => formatNullableDate(ours.next_payment_at) ?? `none: its charges were all made at ${BILLER}`;

const SOURCE = PROVIDER_SUBSCRIPTIONS_IMPORT.sourceName;

/** How far the provider's clock may stand from ours. */
const CLOCK_SKEW_MS = 5 * 60_000;

/**
 * Whether the provider's cancel is the one we last asked for: our request reaches it within the call's
 * timeout, so it cancels by then (give or take the clocks). Canceled later, our request never arrived
 * (a lost connection, a killed run) and someone else — the customer — ended it meanwhile.
 */
function canceledByUs(ctx: AppContext, theirs: ProviderSubscription, askedAt: string | null | undefined): boolean {
  if (!askedAt) return false;
  if (theirs.canceledAt === null) return true;
  return (
    theirs.canceledAt.getTime() <=
    fromDbDateTime(askedAt).getTime() + PROVIDER_SUBSCRIPTIONS_IMPORT.cancelReachesWithinMs(ctx.config) + CLOCK_SKEW_MS
  );
}

/**
 * The provider's subscription stopped without our asking: the customer (or someone in the provider's
 * dashboard) ended it while ours waited to take it over. Ours is held — still pending, so billing
 * charges none of it — and the merchant is told once (`import.handover_held`) and in every run's
 * report, to decide.
 * Ours cancelled meanwhile (the merchant decided): nothing is left to hold.
 */
async function hold(ctx: AppContext, key: HandOverKey, ours: SubscriptionRow, why: string): Promise<HandOver> {
  if (ours.status === 'cancelled' || ours.status === 'completed') return { done: true, note: `${why}; ours is ${ours.status} too` };
  const now = toDbDateTime(ctx.clock.now());
  await importHandOversRepository.ensure(ctx.db, key, ours.id, now);
  await ctx.db.transaction(async (trx) => {
    if (!(await importHandOversRepository.markHeld(trx, key, now))) return;
    await enqueueAccountEvent(
      trx,
      ours.account_id,
      {
        name: 'import.handover_held',
        resourceId: ours.id,
        body: { status: 'held', customer_id: ours.customer_id, source: key.source, source_id: key.source_id, reason: 'canceled_at_source' },
      },
      now,
    );
  });
  ctx.logger.warn('import hand-over held: the source subscription was canceled without our asking', {
    accountId: ours.account_id,
    subscriptionId: ours.id,
    sourceId: key.source_id,
  });
  return {
    done: false,
    held: true,
    note:
      `${why} while ours waited to take it over, so the customer ended it there: ours charges nothing. ` +
      'Cancel ours if the customer ended it; the import never starts charging it',
  };
}

/**
 * Stops the provider's subscription once ours holds the next charge, in the order that never charges a
 * period twice nor skips one. The provider's subscription is read again (the run may come days after ours
 * was made). Completed there: nothing more is billed there. Canceled there: only a cancel we asked for
 * (recorded in `import_handovers` before it was sent) hands ours over; any other cancel was the customer's,
 * and ours is held (see hold), and so is one canceled there well after our last request (canceledByUs).
 * Due today or earlier there: the provider makes that charge on its daily run, ours starts after it, and
 * the hand-over waits until it has made it (its next payment date moved on) before canceling it; a later
 * run finishes. Any period the provider charged since ours was made is taken out of ours first. A lost
 * answer to the cancel, or a crash before it was sent, leaves the row failed on `handover` and ours
 * pending; the next run finds our recorded request and either the provider's canceled (ours) or still
 * active (the cancel is sent again, its moment recorded anew: safe to repeat).
 */
export async function handOverProviderSubscription(
  ctx: AppContext,
  account: Account,
  provider: PaymentProvider,
  candidate: ImportCandidate,
  subscription: SubscriptionRow,
): Promise<HandOver> {
  const customer = await customersRepository.find(ctx.db, account.id, subscription.customer_id);
  const providerCustomerId = customer?.provider_customer_id;
  if (!providerCustomerId) throw new Error(`Our customer is not linked to a ${BILLER} customer.`);
  const key: HandOverKey = { account_id: account.id, source: SOURCE, source_id: candidate.sourceId };
  const theirs = (await provider.listSubscriptions(providerCustomerId)).find((listed) => listed.id === candidate.sourceId);
  // Our request is read after the provider's listing, never before: a run at the same time may record and send
  // its cancel in between, and the provider's canceled would then look like the customer's (held, the merchant misled).
  const askedAt = (await importHandOversRepository.find(ctx.db, key))?.cancel_requested_at;
  const askedToCancel = Boolean(askedAt);
  if (!theirs) {
    if (askedToCancel) return { done: true, note: `${BILLER} no longer lists the subscription: it bills it no more` };
    return hold(ctx, key, subscription, `${BILLER} no longer lists the subscription, and we never asked to cancel it,`);
  }
  const today = calendarDateIn(ctx.clock.now(), ctx.config.APP_TIMEZONE);
  const ours = await moveOursPast(ctx, subscription, (charge) => chargedAtProvider(charge, theirs, today));
  const moved = ours.next_charge_number !== subscription.next_charge_number;
  const from = moved ? `${BILLER} charged up to it, so ours now starts ${firstOf(ours)}` : `ours starts ${firstOf(ours)}`;
  if (theirs.status === 'completed') return { done: true, note: `completed at ${BILLER}; ${from}` };
  if (theirs.status === 'canceled') {
    if (canceledByUs(ctx, theirs, askedAt)) return { done: true, note: `canceled at ${BILLER}; ${from}` };
    return hold(ctx, key, ours, `${BILLER}'s subscription was canceled without our asking (by the customer, or in its dashboard)`);
  }
  if (theirs.nextPaymentDate !== null && theirs.nextPaymentDate <= today) {
    return {
      done: false,
      note:
        `${BILLER} charges the period of ${theirs.nextPaymentDate} itself (due today or earlier), ${from}; ` +
        `run the import again once ${BILLER} has made that charge, to cancel it there`,
    };
  }
  // Ours first, committed, then the call: whatever becomes of its answer, a later run knows the cancel was ours.
  const now = toDbDateTime(ctx.clock.now());
  await importHandOversRepository.ensure(ctx.db, key, subscription.id, now);
  await importHandOversRepository.recordCancelRequest(ctx.db, key, now);
  await provider.cancelSubscription(providerCustomerId, theirs.id);
  return { done: true, note: `canceled at ${BILLER}; ${from}` };
}

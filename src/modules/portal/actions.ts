import type { AppContext } from '../../context';
import type { Account } from '../accounts/account';
import { AppError, NotFoundError, ValidationError } from '../../errors';
import { formatNullableDate, todayIn } from '../../time';
import { daysAfter, parseCalendarDate } from '../../time/calendar';
import { portalSettingsOf, type PortalAction, type PortalSettings } from '../accounts/portalSettings';
import { startMandateTakeover } from '../takeovers/service';
import { cancelSubscription, LIVE, pauseSubscription, resumeSubscription } from '../subscriptions/lifecycle';
import type { SubscriptionRow } from '../subscriptions/repository';
import { skipNextCharge } from '../subscriptions/skip';
import { confirmCancelled, confirmPaused, confirmResumed, confirmSkipped } from './confirmations';
import { portalOverviewRepository } from './overviewRepository';

/**
 * What a customer can do in the portal. Each action is checked against the account's portal
 * settings (not allowed: 403), works only on the customer's own subscriptions (another customer's
 * or account's id: 404, as one that does not exist), goes through the subscription lifecycle the
 * API uses, with `"via": "portal"` in its event, and queues its confirmation mail in the same
 * transaction.
 */

/** The customer of a portal session: everything is scoped by both. */
export interface PortalCustomer {
  account: Account;
  customerId: string;
}

export class PortalActionNotAllowedError extends AppError {
  constructor(readonly action: PortalAction) {
    super(403, `The merchant does not allow "${action}" in the portal`, 'portal_action_not_allowed');
  }
}

/** The account's portal settings, or 403 when this action is not among the allowed ones. */
export async function requireAllowed(ctx: AppContext, who: PortalCustomer, action: PortalAction): Promise<PortalSettings> {
  const settings = await portalSettingsOf(ctx.db, who.account.id);
  if (!settings.allowed.has(action)) throw new PortalActionNotAllowedError(action);
  return settings;
}

/** One of the customer's own subscriptions; 404 for any other id. */
export async function portalSubscription(ctx: AppContext, who: PortalCustomer, id: string): Promise<SubscriptionRow> {
  const row = await portalOverviewRepository.subscriptionOf(ctx.db, who.account.id, who.customerId, id);
  if (!row) throw new NotFoundError('Subscription');
  return row;
}

/** The longest reason kept (the column's size). */
export const CANCEL_REASON_MAX = 500;

/**
 * Cancels at the end of the period already paid: `cancel_at` is the next charge date, so that
 * charge and every later one is never made; with no charge ahead, today.
 */
export async function cancelFromPortal(ctx: AppContext, who: PortalCustomer, id: string, reason: string | null): Promise<SubscriptionRow> {
  await requireAllowed(ctx, who, 'cancel');
  const row = await portalSubscription(ctx, who, id);
  // Already cancelled, or ending on a date: a form sent twice changes nothing (its next charge is none by now).
  if (!LIVE.has(row.status) || row.cancel_at !== null) return row;
  const cancelAt = formatNullableDate(row.next_payment_at) ?? todayIn(ctx);
  const kept = reason?.trim().slice(0, CANCEL_REASON_MAX) || null;
  return cancelSubscription(ctx, who.account, row.id, cancelAt, {
    via: 'portal',
    reason: kept,
    confirm: (trx, after) => confirmCancelled(ctx, trx, after, kept),
  });
}

export type PauseDateProblem = 'invalid' | 'not_after_today' | 'too_far';

/** A pause date the customer may not choose; the page says why in their language. */
export class PauseDateError extends ValidationError {
  constructor(
    readonly problem: PauseDateProblem,
    /** The last date a pause may run to. */
    readonly latest: string,
  ) {
    super('Could not pause subscription', { until: [problem] });
  }
}

/** The dates a pause may end on: tomorrow up to `maxPauseDays` from today. */
export function pauseWindow(today: string, settings: Pick<PortalSettings, 'maxPauseDays'>): { earliest: string; latest: string } {
  return { earliest: daysAfter(today, 1), latest: daysAfter(today, settings.maxPauseDays) };
}

/** Pauses until `until` (charging resumes that day), at most the account's `maxPauseDays` ahead. */
export async function pauseFromPortal(ctx: AppContext, who: PortalCustomer, id: string, until: string): Promise<SubscriptionRow> {
  const settings = await requireAllowed(ctx, who, 'pause');
  const row = await portalSubscription(ctx, who, id);
  const { earliest, latest } = pauseWindow(todayIn(ctx), settings);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(until) || !parseCalendarDate(until)) throw new PauseDateError('invalid', latest);
  if (until < earliest) throw new PauseDateError('not_after_today', latest);
  if (until > latest) throw new PauseDateError('too_far', latest);
  return pauseSubscription(ctx, who.account, row.id, until, { via: 'portal', confirm: (trx, after) => confirmPaused(ctx, trx, after) });
}

/** Resuming belongs with pausing: allowed when pausing is. */
export async function resumeFromPortal(ctx: AppContext, who: PortalCustomer, id: string): Promise<SubscriptionRow> {
  await requireAllowed(ctx, who, 'pause');
  const row = await portalSubscription(ctx, who, id);
  return resumeSubscription(ctx, who.account, row.id, { via: 'portal', confirm: (trx, after) => confirmResumed(ctx, trx, after) });
}

/**
 * Skips the next charge: the one dated `expectedDate`, the date the confirmation page showed. A
 * form sent twice finds another next charge and skips nothing more (409).
 */
export async function skipFromPortal(ctx: AppContext, who: PortalCustomer, id: string, expectedDate: string): Promise<SubscriptionRow> {
  await requireAllowed(ctx, who, 'skip');
  const row = await portalSubscription(ctx, who, id);
  return skipNextCharge(ctx, who.account, row.id, {
    via: 'portal',
    expectedDate,
    confirm: (trx, after) => confirmSkipped(ctx, trx, after, expectedDate),
  });
}

/**
 * Starts a change of payment method: a takeover link (a first payment of 0.01) for the chosen
 * subscription, or every one in use when none is chosen, which sends the customer back to the
 * portal once paid. The takeover remembers it came from the portal, so paying it confirms the
 * change by mail (takeovers/confirmation.ts). Answers the link's id; its page is `/pay/{id}`.
 */
export async function changeMethodFromPortal(
  ctx: AppContext,
  who: PortalCustomer,
  subscriptionId: string | null,
  words: { description: string; locale: string },
): Promise<{ linkId: string }> {
  await requireAllowed(ctx, who, 'change-method');
  if (subscriptionId !== null) {
    const row = await portalSubscription(ctx, who, subscriptionId);
    if (!LIVE.has(row.status)) throw new NotFoundError('Subscription');
  }
  const { linkId } = await startMandateTakeover(ctx, who.account, {
    customerId: who.customerId,
    subscriptionIds: subscriptionId === null ? null : [subscriptionId],
    amountCents: null,
    description: words.description,
    redirectUrl: `${ctx.config.publicUrl}/portal/?done=method`,
    locale: words.locale,
    requestedVia: 'portal',
  });
  return { linkId };
}

import type { Knex } from 'knex';
import type { AppContext } from '../../context';
import { queueMail } from '../../mail/queue';
import { CreationOutcomeUnknownError } from '../../providers/errors';
import { todayIn, toDbDateTime } from '../../time';
import { accountsRepository } from '../accounts/repository';
import { customersRepository } from '../customers/repository';
import { paymentLinksRepository } from '../links/repository';
import { followUpLinkRow, withdrawLink } from '../links/service';
import { mandatesRepository } from '../mandates/repository';
import { insertTakeoverLink } from '../takeovers/service';
import { startPayment } from '../payments/pipeline';
import { paymentsRepository, type PaymentRow } from '../payments/repository';
import { ENDED_WITHOUT_MONEY, SETTLED_STATUSES, type PaymentRowStatus } from '../payments/transitions';
import { cancelIn, pauseIn } from '../subscriptions/lifecycle';
import { subscriptionsRepository } from '../subscriptions/repository';
import { enqueueFollowUpEvent } from './events';
import { daysAfter } from '../../time/calendar';
import { followUpsRepository, type FollowUpRow } from './repository';
import { needsNewMandate, nextStep } from './policy';
import { followUpSettingsOf } from './settings';
import { openMissedDoublePayments, refundMissedDoublePayments } from './doublePayments';
import { cancelLeftoverPayments } from './settledByHand';
import { errorMessage } from '../../errors';

/** How long the payment link of a follow-up can be paid. */
export const FOLLOW_UP_LINK_DAYS = 14;

/** Due follow-ups one run takes on; the rest wait for the next run. */
const DUE_STEPS_PER_RUN = 1000;

/** The origin key of a follow-up's n-th retry: that retry has one payment, however often the job runs. */
export const retryOriginKey = (followUp: Pick<FollowUpRow, 'id'>, attempt: number) => `follow-up-${followUp.id}-retry-${attempt}`;

/** Moves a pending follow-up from one stage to the next, only if nobody moved it first. */
function advance(trx: Knex, row: FollowUpRow, changes: Partial<FollowUpRow>): Promise<number> {
  return followUpsRepository.advanceIfUnmoved(trx, row, changes);
}

/**
 * A settled follow-up asks nothing more of the customer: its payment link, while still open (one
 * sent a moment ago too: read again in the settling transaction), can no longer be paid. A link
 * that expired or was paid is left as it is: a payment already under way there is the payer's.
 */
async function withdrawItsLink(trx: Knex.Transaction, row: FollowUpRow, now: string): Promise<void> {
  const current = await followUpsRepository.find(trx, row.account_id, row.id);
  const link = current?.link_id ? await paymentLinksRepository.find(trx, row.account_id, current.link_id) : undefined;
  if (link?.status === 'open') await withdrawLink(trx, row.account_id, link.id, now);
}

/** Marks a follow-up solved (a paid retry, a paid link, a payment found after all, or by hand). */
export async function solve(ctx: AppContext, trx: Knex.Transaction, row: FollowUpRow, now: string): Promise<boolean> {
  const moved = await followUpsRepository.resolve(trx, row, 'solved', now);
  if (!moved) return false;
  await withdrawItsLink(trx, row, now);
  await enqueueFollowUpEvent(trx, row, 'solved', now);
  ctx.logger.info('follow-up solved', { accountId: row.account_id, followUpId: row.id });
  return true;
}

/** Marks a follow-up failed; when `act`, the account's on-failure action applies to its subscription. */
export async function giveUp(
  ctx: AppContext,
  trx: Knex.Transaction,
  row: FollowUpRow,
  now: string,
  options: { act: boolean },
): Promise<boolean> {
  const moved = await followUpsRepository.resolve(trx, row, 'failed', now);
  if (!moved) return false;
  await withdrawItsLink(trx, row, now);
  await enqueueFollowUpEvent(trx, row, 'failed', now);
  const { onFailure } = await followUpSettingsOf(trx, row.account_id);
  if (options.act && row.subscription_id && onFailure !== 'keep') {
    const subscription = { id: row.subscription_id, account_id: row.account_id };
    if (onFailure === 'pause') await pauseIn(trx, subscription, todayIn(ctx), now);
    else await cancelIn(trx, subscription, todayIn(ctx), now);
  }
  ctx.logger.info('follow-up failed', { accountId: row.account_id, followUpId: row.id, onFailure: options.act ? onFailure : 'by hand' });
  return true;
}

/**
 * A retry did not pay: another retry after the account's days while retries are left and the code
 * is worth it; otherwise the link (type both, or a code not worth retrying) or, for type retry, the end.
 */
async function afterFailedRetry(
  ctx: AppContext,
  trx: Knex.Transaction,
  row: FollowUpRow,
  payment: Pick<PaymentRow, 'failure_code' | 'failure_reason'>,
  now: string,
): Promise<void> {
  const settings = await followUpSettingsOf(trx, row.account_id);
  const code = payment.failure_code ?? row.reason_code;
  const changes = { reason: payment.failure_reason?.slice(0, 191) ?? row.reason, reason_code: code?.slice(0, 32) ?? null, updated_at: now };
  const step = nextStep({ moment: 'retry failed', kind: row.kind, reasonCode: code, retriesDone: row.retries_done }, settings);
  if (step.stage === 'retry' || step.stage === 'link') {
    await advance(
      trx,
      { ...row, stage: 'waiting' },
      { ...changes, stage: step.stage, next_retry_at: daysAfter(todayIn(ctx), step.inDays) },
    );
  } else {
    await giveUp(ctx, trx, row, now, { act: true });
  }
}

/** No retry can be made (no valid mandate, or the provider refused it): the policy's step for that, which is the link today. */
async function linkInstead(ctx: AppContext, row: FollowUpRow, changes: Partial<FollowUpRow>): Promise<void> {
  const step = nextStep(
    { moment: 'retry impossible', kind: row.kind, reasonCode: row.reason_code, retriesDone: row.retries_done },
    await followUpSettingsOf(ctx.db, row.account_id),
  );
  if (step.stage !== 'link') throw new Error(`the follow-up policy gave ${step.stage} where a retry could not be made`);
  await advance(ctx.db, row, { ...changes, stage: 'link', next_retry_at: daysAfter(todayIn(ctx), step.inDays) });
}

/**
 * The settle hook for payments made by follow-ups (retries): paid solves the follow-up; anything
 * else that ends the payment moves it to its next step. Runs in the payment's status transaction.
 */
export async function onRetrySettled(ctx: AppContext, trx: Knex.Transaction, payment: PaymentRow, to: PaymentRowStatus): Promise<void> {
  if (!payment.purpose_id) return;
  const row = await followUpsRepository.find(trx, payment.account_id, payment.purpose_id);
  if (!row || row.status !== 'pending') return;
  const now = toDbDateTime(ctx.clock.now());
  if (to === 'paid') await solve(ctx, trx, row, now);
  else if (ENDED_WITHOUT_MONEY.has(to) && row.stage === 'waiting' && row.link_id === null) {
    await afterFailedRetry(ctx, trx, row, payment, now);
  }
}

/** The settle hook for payment links: a paid link that a follow-up sent solves it. */
export async function onLinkPaid(ctx: AppContext, trx: Knex.Transaction, payment: PaymentRow): Promise<void> {
  if (!payment.purpose_id) return;
  const rows = await followUpsRepository.pendingOfLink(trx, payment.account_id, payment.purpose_id);
  for (const row of rows) await solve(ctx, trx, row, toDbDateTime(ctx.clock.now()));
}

/** The n-th retry: a recurring payment on the subscription's mandate, made once per (follow-up, n). */
async function retry(ctx: AppContext, row: FollowUpRow): Promise<'done' | 'unknown'> {
  const account = await accountsRepository.findById(ctx.db, row.account_id);
  const subscription = row.subscription_id ? await subscriptionsRepository.find(ctx.db, row.account_id, row.subscription_id) : undefined;
  const customer = row.customer_id ? await customersRepository.find(ctx.db, row.account_id, row.customer_id) : undefined;
  const mandate =
    subscription &&
    (await mandatesRepository.findForCustomer(ctx.db, row.account_id, subscription.customer_id, subscription.provider_mandate_id));
  const now = toDbDateTime(ctx.clock.now());
  const attempt = row.retries_done + 1;
  if (
    !account ||
    !subscription ||
    !customer?.provider_customer_id ||
    !mandate ||
    mandate.status !== 'valid' ||
    mandate.revoked_at !== null
  ) {
    // Nothing to charge again on: the customer is asked to pay by link instead.
    await linkInstead(ctx, row, { updated_at: now });
    return 'done';
  }
  let payment: PaymentRow;
  try {
    payment = await startPayment(ctx, account, {
      purpose: 'follow-up',
      purposeId: row.id,
      originKey: retryOriginKey(row, attempt),
      subscriptionId: subscription.id,
      customer: { id: customer.id, providerCustomerId: customer.provider_customer_id },
      sequenceType: 'recurring',
      mandateId: mandate.id,
      amount: row.amount,
      currency: row.currency,
      description: row.description,
      method: null,
      redirectUrl: null,
      webhookUrl: null,
      profileId: row.provider_profile_id,
    });
  } catch (error) {
    // Only a retry the provider certainly does not hold (rejected) sends the customer a link; one
    // kept `creating` (an answer lost, a rate limit) is resumed by the next run, never made twice.
    const kept = await paymentsRepository.findByOriginKey(ctx.db, row.account_id, retryOriginKey(row, attempt));
    if (kept?.status === 'rejected') {
      await linkInstead(ctx, row, { retries_done: attempt, updated_at: now });
      return 'done';
    }
    if (error instanceof CreationOutcomeUnknownError) return 'unknown';
    throw error;
  }
  await advance(ctx.db, row, {
    stage: 'waiting',
    retries_done: attempt,
    next_retry_at: null,
    provider_payment_id: payment.provider_payment_id,
    updated_at: now,
  });
  // The payment may have settled before this follow-up was waiting for it (its hook then changed nothing).
  const settled = await paymentsRepository.find(ctx.db, row.account_id, payment.id);
  if (settled && SETTLED_STATUSES.has(settled.status)) {
    await ctx.db.transaction(async (trx) => {
      const waiting = await followUpsRepository.find(trx, row.account_id, row.id);
      if (waiting?.status !== 'pending' || waiting.stage !== 'waiting' || waiting.link_id !== null) return;
      if (settled.status === 'paid') await solve(ctx, trx, waiting, now);
      else if (settled.status !== 'refunded' && settled.status !== 'charged_back') await afterFailedRetry(ctx, trx, waiting, settled, now);
    });
  }
  return 'done';
}

/**
 * The link step: a payment link for the failed amount, e-mailed to the customer, in one transaction.
 * When the mandate is missing or its account gone (policy.ts, needsNewMandate) it is a takeover link
 * instead: a `first` payment of that amount whose new mandate takes the subscription over when paid.
 */
async function sendLink(ctx: AppContext, row: FollowUpRow): Promise<void> {
  const now = toDbDateTime(ctx.clock.now());
  await ctx.db.transaction(async (trx) => {
    const account = await accountsRepository.findById(trx, row.account_id);
    const customer = row.customer_id ? await customersRepository.find(trx, row.account_id, row.customer_id) : undefined;
    const linkInput = {
      customerId: row.customer_id,
      amount: row.amount,
      currency: row.currency,
      description: row.description,
      expiresAt: daysAfter(todayIn(ctx), FOLLOW_UP_LINK_DAYS),
    };
    const takeover =
      customer && row.subscription_id && needsNewMandate(row) ? { customerId: customer.id, subscriptionId: row.subscription_id } : null;
    const link = followUpLinkRow({ id: row.account_id }, linkInput, now);
    const moved = await advance(trx, row, {
      stage: 'waiting',
      link_id: link.id,
      next_retry_at: null,
      mails_sent: row.mails_sent + (customer ? 1 : 0),
      updated_at: now,
    });
    if (!moved) return;
    if (takeover) {
      await insertTakeoverLink(
        trx,
        row.account_id,
        {
          ...linkInput,
          customerId: takeover.customerId,
          subscriptionIds: [takeover.subscriptionId],
          amountCents: row.amount,
          redirectUrl: null,
        },
        now,
        link.id,
      );
    } else {
      await paymentLinksRepository.insert(trx, link);
    }
    if (!customer || !account) return; // no one to write to: the link is there for the merchant to pass on
    await queueMail(trx, ctx, {
      accountId: row.account_id,
      to: customer.email,
      locale: customer.locale,
      dedupeKey: `follow-up-link:${row.id}`,
      template: 'link-reminder',
      data: {
        merchantName: account.display_name ?? account.name,
        customerName: `${customer.first_name} ${customer.last_name}`.trim() || null,
        description: link.description,
        amountCents: link.amount,
        currency: link.currency,
        url: `${ctx.config.publicUrl}/pay/${link.id}`,
        expiresAt: link.expires_at,
      },
    });
  });
}

export interface FollowUpRun {
  retried: number;
  linked: number;
  failed: number;
  errors: number;
}

/**
 * One pass over pending follow-ups as of `date`: due retries are charged, due links sent, and
 * follow-ups whose link expired unpaid fail (with the account's on-failure action).
 */
export async function runFollowUps(ctx: AppContext, date: string, signal?: AbortSignal): Promise<FollowUpRun> {
  const run: FollowUpRun = { retried: 0, linked: 0, failed: 0, errors: 0 };
  const due = await followUpsRepository.dueSteps(ctx.db, date, DUE_STEPS_PER_RUN);
  for (const row of due) {
    if (signal?.aborted) break;
    try {
      if (row.stage === 'retry') {
        if ((await retry(ctx, row)) === 'done') run.retried += 1;
        else run.errors += 1;
      } else {
        await sendLink(ctx, row);
        run.linked += 1;
      }
    } catch (error) {
      run.errors += 1;
      ctx.logger.error('follow-up step failed; tried again next run', {
        accountId: row.account_id,
        followUpId: row.id,
        error: errorMessage(error),
      });
    }
  }
  const lapsed = await followUpsRepository.waitingOnLapsedLinks(ctx.db);
  for (const row of lapsed) {
    const now = toDbDateTime(ctx.clock.now());
    if (await ctx.db.transaction((trx) => giveUp(ctx, trx, row, now, { act: true }))) run.failed += 1;
  }
  await cancelLeftoverPayments(ctx);
  await openMissedDoublePayments(ctx);
  await refundMissedDoublePayments(ctx);
  return run;
}

import type { Knex } from 'knex';
import type { AppContext } from '../../context';
import type { ProviderMandate, ProviderPayment } from '../../providers/types';
import { calendarDateIn, toDbDateTime } from '../../time';
import { retryDeadlocks } from '../../db/deadlocks';
import { deliverEvent, firstAttemptClaim } from '../../events/delivery';
import { enqueuePaymentEvents } from '../../events/events';
import { mandatesRepository } from '../mandates/repository';
import { recordProviderMandate } from '../mandates/service';
import { paymentsRepository, type PaymentRow } from './repository';
import { canMoveTo, isLateAttachment, SETTLED_STATUSES, type PaymentRowStatus } from './transitions';

export interface StatusChangeOptions {
  /**
   * The change is told to the client in the answer to its own request (the create), so no event
   * goes to its webhook_url for it. Every other change is told by an event: never both, never neither.
   */
  answeredInRequest: boolean;
  /**
   * Written with the change, in its transaction, after the settle hook and the payment's events: what
   * the payment's maker records of it (a charge made). Not called for a refusal (`rejected`), nor when
   * no change is committed: the caller then writes it itself. A transaction rolled back to break a
   * deadlock is made again, so this may be called more than once; only the transaction that committed counts.
   */
  withChange?: (trx: Knex.Transaction, payment: PaymentRow) => Promise<void>;
}

/**
 * Events' first attempts, a few at a time: a billing run's 100,000 status changes never pile up as
 * requests in memory. One that finds the waiting room full is left to the delivery job (after its claim).
 */
const FIRST_ATTEMPTS = { name: 'first event attempts', limit: 16, maxWaiting: 1000, quietMs: 0, maxDeferMs: 0 };

/** How often a change that lost a race to a concurrent change of the same payment is tried again. */
const RACE_ATTEMPTS = 5;

interface Transition {
  row: PaymentRow;
  to: PaymentRowStatus;
  changes: Partial<PaymentRow>;
  /** A mandate the payment created (a paid first payment), recorded with the change. */
  mandate?: ProviderMandate;
}

/**
 * Moves one payment from the status it has in `row` to `to`, if it still has it: the status, its
 * history entry, the client's event and the settle hook commit together or not at all. False when a
 * concurrent change came first (the caller re-reads and decides again).
 */
async function commitTransition(
  ctx: AppContext,
  { row, to, changes, mandate }: Transition,
  options: StatusChangeOptions,
): Promise<boolean> {
  const now = toDbDateTime(ctx.clock.now());
  // A settled payment is no longer under way: its link or order may have another one.
  const settles = SETTLED_STATUSES.has(to) ? { in_progress_key: null } : {};
  const after: PaymentRow = { ...row, ...changes, ...settles, status: to, updated_at: now };
  // A deadlock's victim (MySQL) was rolled back whole: made again, it finds the payment as it was.
  const eventIds = await retryDeadlocks(() =>
    ctx.db.transaction(async (trx) => {
      const moved = await paymentsRepository.updateStatusIfUnchanged(trx, row.account_id, row.id, row.status, {
        ...changes,
        ...settles,
        status: to,
        updated_at: now,
      });
      if (!moved) return false;
      await paymentsRepository.recordStatus(trx, { account_id: row.account_id, payment_id: row.id, status: to, changed_at: now });
      if (mandate && row.customer_id) {
        const today = calendarDateIn(ctx.clock.now(), ctx.config.APP_TIMEZONE);
        await recordProviderMandate(trx, { id: row.customer_id, account_id: row.account_id }, mandate, { now, today });
      }
      if (SETTLED_STATUSES.has(to)) await ctx.settlements.run(trx, { payment: after, from: row.status, to });
      // Its first attempt is ours, right after the commit: claimed as it is written.
      const eventIds = await enqueuePaymentEvents(trx, row, to, now, {
        toPaymentUrl: !options.answeredInRequest,
        claimedUntil: firstAttemptClaim(ctx.clock.now()),
      });
      // A refused payment is none: its maker records that apart.
      if (to !== 'rejected') await options.withChange?.(trx, after);
      return eventIds;
    }),
  );
  if (eventIds === false) return false;
  ctx.logger.info('payment status changed', { accountId: row.account_id, paymentId: row.id, purpose: row.purpose, from: row.status, to });
  // A first attempt right away; the delivery job retries whatever this does not deliver.
  for (const eventId of eventIds) {
    ctx.background.runInLane(FIRST_ATTEMPTS, 'deliver webhook event', () => deliverEvent(ctx, eventId, { claimed: true }));
  }
  // The change is recorded: what follows it apart (an owed invoice) can fail without undoing it.
  if (SETTLED_STATUSES.has(to)) {
    await ctx.settlements.runCommitted({ payment: after, from: row.status, to }, (error) =>
      ctx.logger.warn('work after a payment status change failed; its job tries again', {
        accountId: row.account_id,
        paymentId: row.id,
        error: error instanceof Error ? error.message.split(' - ').pop() : String(error),
      }),
    );
  }
  return true;
}

async function reread(ctx: AppContext, row: PaymentRow): Promise<PaymentRow> {
  const current = await paymentsRepository.find(ctx.db, row.account_id, row.id);
  if (!current) throw new Error(`Payment ${row.id} of account ${row.account_id} disappeared`);
  return current;
}

/**
 * A paid first payment created a mandate at the provider, which later recurring charges use: fetched
 * once (before the transaction: no outside call holds a database transaction open) unless we know it.
 */
async function mandateCreatedBy(ctx: AppContext, row: PaymentRow, remote: ProviderPayment): Promise<ProviderMandate | undefined> {
  if (remote.status !== 'paid' || row.sequence_type !== 'first' || !remote.mandateId || !row.customer_id) return undefined;
  if (await mandatesRepository.findForCustomer(ctx.db, row.account_id, row.customer_id, remote.mandateId)) return undefined;
  const customerId = remote.customerId ?? row.provider_customer_id;
  if (!customerId) return undefined;
  const provider = await ctx.providers.forAccount({ id: row.account_id });
  return provider.getMandate(customerId, remote.mandateId);
}

function changesFrom(row: PaymentRow, remote: ProviderPayment): Partial<PaymentRow> {
  return {
    provider_payment_id: remote.id,
    method: remote.method ?? row.method,
    paid_at: remote.paidAt ? toDbDateTime(remote.paidAt) : row.paid_at,
    failure_reason: remote.failureReason,
    failure_code: remote.failureCode,
    amount_charged_back: remote.amountChargedBack,
    checkout_url: remote.checkoutUrl ?? row.checkout_url,
    provider_mandate_id: remote.mandateId ?? row.provider_mandate_id,
  };
}

/**
 * Applies what the provider says about a payment: statuses only move forward (but a payment given
 * up as `rejected` that the provider holds after all takes its status) and each change is
 * recorded once. When a concurrent change of the same payment wins the race (open → pending here,
 * open → paid there), the payment is read again and the provider's status applied on top of the
 * winner's, so no status is ever dropped.
 */
export async function applyProviderPayment(
  ctx: AppContext,
  row: PaymentRow,
  remote: ProviderPayment,
  options: StatusChangeOptions,
): Promise<PaymentRow> {
  let current = row;
  let mandate: ProviderMandate | undefined;
  let mandateAsked = false;
  for (let attempt = 0; attempt < RACE_ATTEMPTS; attempt += 1) {
    if (!canMoveTo(current.status, remote.status) && !isLateAttachment(current, remote)) return current;
    if (!mandateAsked) {
      mandate = await mandateCreatedBy(ctx, current, remote);
      mandateAsked = true;
    }
    const transition = { row: current, to: remote.status, changes: changesFrom(current, remote), mandate };
    if (await commitTransition(ctx, transition, options)) return reread(ctx, current);
    current = await reread(ctx, current);
  }
  ctx.logger.warn('payment status kept changing under us; the next report or reconciliation applies it', {
    accountId: row.account_id,
    paymentId: row.id,
  });
  return current;
}

/** Records that a payment still `creating` ends without a payment at the provider (refused, or given up). */
export async function rejectPayment(
  ctx: AppContext,
  row: PaymentRow,
  reason: { code: string; message: string },
  options: StatusChangeOptions,
): Promise<PaymentRow> {
  // No further attempt: nothing is resumed (reconciliation may still look for it, see rejectedRecheck.ts).
  const changes = { failure_code: reason.code.slice(0, 32), failure_reason: reason.message.slice(0, 191), next_attempt_at: null };
  await commitTransition(ctx, { row, to: 'rejected', changes }, options);
  return reread(ctx, row);
}

import type { Knex } from 'knex';
import type { AppContext } from '../../context';
import type { Account } from '../accounts/account';
import { committed, retryDeadlocks } from '../../db/deadlocks';
import { CreationOutcomeUnknownError } from '../../providers/errors';
import { formatDate, formatNullableDate, msAfter, toDbDateTime } from '../../time';
import { accountsRepository } from '../accounts/repository';
import { customersRepository } from '../customers/repository';
import { openFollowUp } from '../follow-ups/opening';
import { mandatesRepository } from '../mandates/repository';
import { resumePayment, startPayment } from '../payments/pipeline';
import { paymentsRepository, type PaymentRow } from '../payments/repository';
import type { StatusChangeOptions } from '../payments/statusChange';
import { WITHOUT_IDEMPOTENCY_KEY } from '../../db/idempotencyScope';
import { pausesRepository } from '../subscriptions/pausesRepository';
import { subscriptionsRepository, type SubscriptionRow } from '../subscriptions/repository';
import { fateOf } from '../subscriptions/schedule';
import { chargesRepository, type ChargeRow } from '../subscriptions/chargesRepository';
import { enqueueSubscriptionEvent } from '../subscriptions/events';
import { errorMessage } from '../../errors';

/** What became of one claimed charge, for the run's summary. */
export type ChargeOutcome = 'charged' | 'skipped' | 'not_charged' | 'unknown' | 'failed';

/** A charge whose payment's outcome was not learned is tried again (same payment, same key) after this. */
export const CHARGE_RETRY_AFTER_MS = 60 * 1000;

/** The origin key of a charge's payment: unique per account, so a charge has one payment, ever. */
export const chargeOriginKey = (charge: Pick<ChargeRow, 'id'>) => `charge-${charge.id}`;

/** The later of two stored UTC times (fixed-width strings sort as text). */
const laterOf = (time: string, other: string | null) => (other !== null && other > time ? other : time);

/** Accounts met during one run, read once. */
export class AccountCache {
  private readonly accounts = new Map<string, Promise<Account | undefined>>();

  constructor(private readonly ctx: AppContext) {}

  get(id: string): Promise<Account | undefined> {
    let account = this.accounts.get(id);
    if (!account) {
      account = accountsRepository
        .findById(this.ctx.db, id)
        .then((row) => row && { id: row.id, name: row.name, bookkeeping_system: row.bookkeeping_system, public_ref: row.public_ref });
      this.accounts.set(id, account);
    }
    return account;
  }
}

/**
 * Ends a charge that is not to be made (skipped in a pause, or cancelled), deciding again under the
 * subscription's row — taken first, as a resume takes it — so a resume that came in meanwhile wins
 * and the charge is made instead. True when it ended.
 */
export async function endUnlessFreed(ctx: AppContext, charge: ChargeRow, now: string): Promise<boolean> {
  return retryDeadlocks(() =>
    ctx.db.transaction(async (trx) => {
      await subscriptionsRepository.update(trx, { id: charge.subscription_id, account_id: charge.account_id }, { updated_at: now });
      const subscription = await subscriptionsRepository.find(trx, charge.account_id, charge.subscription_id);
      const fate = subscription ? await fateNow(trx, charge, subscription) : 'ended';
      if (fate === 'charge') return false;
      await chargesRepository.finish(trx, charge, { status: fate === 'ended' ? 'cancelled' : 'skipped', updated_at: now });
      return true;
    }),
  );
}

/** The mandate is not valid (revoked here, or refused by the provider): no charge; the customer is asked to pay by link. */
async function notCharged(
  ctx: AppContext,
  charge: ChargeRow,
  subscription: SubscriptionRow,
  reason: string,
  paymentId: string | null,
): Promise<ChargeOutcome> {
  const now = toDbDateTime(ctx.clock.now());
  await retryDeadlocks(() =>
    ctx.db.transaction(async (trx) => {
      const finished = await chargesRepository.finish(trx, charge, {
        status: 'not_charged',
        payment_id: paymentId,
        last_error: reason.slice(0, 191),
        updated_at: now,
      });
      if (!finished) return;
      await openFollowUp(ctx, trx, {
        kind: 'mandate',
        originId: charge.id,
        accountId: charge.account_id,
        customerId: subscription.customer_id,
        subscriptionId: subscription.id,
        paymentId,
        providerPaymentId: null,
        amount: charge.amount,
        currency: charge.currency,
        description: subscription.name,
        providerProfileId: subscription.provider_profile_id,
        reason,
        reasonCode: 'mandate_invalid',
      });
    }),
  );
  ctx.logger.warn('subscription not charged: its mandate is not valid', {
    accountId: charge.account_id,
    subscriptionId: subscription.id,
    chargeId: charge.id,
  });
  return 'not_charged';
}

/**
 * The subscription changed after the charge read it and before its payment was written (a pause, a
 * cancellation, a new mandate taking over): the charge is decided again against it as it is now.
 */
class SubscriptionChangedMeanwhile extends Error {}

/** How often a charge is decided again in one go while its subscription keeps changing; then it is tried again later. */
const MAX_REDECISIONS = 3;

/**
 * Whether the charge is still to be made on `mandateId`, decided in the transaction that writes its
 * payment, before the write. The subscription's row is taken first, as every change to it (a pause,
 * a cancellation, a takeover's move to a new mandate) takes it first: one committed since the charge
 * read the subscription is read here, and none commits until the payment's row is. Throws
 * SubscriptionChangedMeanwhile otherwise, and the payment is not written.
 */
async function admitCharge(trx: Knex.Transaction, charge: ChargeRow, mandateId: string, now: string): Promise<void> {
  await subscriptionsRepository.update(trx, { id: charge.subscription_id, account_id: charge.account_id }, { updated_at: now });
  const current = await subscriptionsRepository.find(trx, charge.account_id, charge.subscription_id);
  if (!current || current.provider_mandate_id !== mandateId || (await fateNow(trx, charge, current)) !== 'charge') {
    throw new SubscriptionChangedMeanwhile(`subscription ${charge.subscription_id} changed while charge ${charge.id} was being started`);
  }
  const mandate = await mandatesRepository.findForCustomer(trx, charge.account_id, current.customer_id, mandateId);
  if (!mandate || mandate.status !== 'valid' || mandate.revoked_at !== null) {
    throw new SubscriptionChangedMeanwhile(
      `the mandate of subscription ${charge.subscription_id} changed while charge ${charge.id} was being started`,
    );
  }
}

/** The charge's `recurring` payment on the subscription's mandate, through the pipeline; null when there is no valid mandate to charge. */
async function startCharge(
  ctx: AppContext,
  account: Account,
  charge: ChargeRow,
  subscription: SubscriptionRow,
  recording: Pick<StatusChangeOptions, 'withChange'>,
  now: string,
): Promise<PaymentRow | null> {
  const customer = await customersRepository.find(ctx.db, charge.account_id, subscription.customer_id);
  const mandate = await mandatesRepository.findForCustomer(
    ctx.db,
    charge.account_id,
    subscription.customer_id,
    subscription.provider_mandate_id,
  );
  if (!customer?.provider_customer_id || !mandate || mandate.status !== 'valid' || mandate.revoked_at !== null) return null;
  return startPayment(
    ctx,
    account,
    {
      purpose: 'charge',
      purposeId: charge.id,
      originKey: chargeOriginKey(charge),
      subscriptionId: subscription.id,
      customer: { id: customer.id, providerCustomerId: customer.provider_customer_id },
      sequenceType: 'recurring',
      mandateId: mandate.id,
      amount: charge.amount,
      currency: charge.currency,
      description: `${subscription.name} ${formatDate(charge.due_date)}`,
      method: null,
      redirectUrl: null,
      webhookUrl: null,
      profileId: subscription.provider_profile_id,
      admit: (trx) => admitCharge(trx, charge, mandate.id, now),
    },
    WITHOUT_IDEMPOTENCY_KEY,
    recording,
  );
}

/**
 * Records the charge made with its payment: `charged`, the subscription's last payment, the merchant's
 * `subscription.charged` event. False when our claim was taken over (whoever holds it records the same
 * payment) or the charge was settled already.
 */
async function recordCharged(trx: Knex.Transaction, charge: ChargeRow, subscription: SubscriptionRow, made: PaymentRow, now: string) {
  const finished = await chargesRepository.finish(trx, charge, {
    status: 'charged',
    payment_id: made.id,
    last_error: null,
    updated_at: now,
  });
  if (!finished) return false;
  await subscriptionsRepository.update(trx, subscription, { last_payment_created_at: made.created_at, updated_at: now });
  await enqueueSubscriptionEvent(trx, subscription, 'charged', now, {
    payment_id: made.id,
    charge_number: charge.charge_number,
    due_date: formatDate(charge.due_date),
  });
  return true;
}

/**
 * Whether a charge not started yet is still to be made against the subscription as it is now: cancelled from cancel_at on, skipped while
 * paused.
 */
async function fateNow(db: Knex, charge: ChargeRow, subscription: SubscriptionRow): Promise<'charge' | 'skip' | 'ended'> {
  if (subscription.status === 'cancelled' && subscription.cancel_at === null) return 'ended';
  const pauses = await pausesRepository.periodsOf(db, charge.account_id, subscription.id);
  // Cancelling ends the charges dated on or after cancel_at, not the ones due before it.
  return fateOf(formatDate(charge.due_date), pauses, formatNullableDate(subscription.cancel_at));
}

/**
 * Makes one claimed charge: a `recurring` payment on the subscription's mandate, through the
 * pipeline, with the charge's origin key, so however often this runs (a retried run, a second
 * instance, a crash halfway) the charge has one payment. A charge not started yet has its fate
 * decided again here against the subscription as it is now: paused, or cancelled from a date on or
 * before its own, means no payment — and once more where its payment is written, under the
 * subscription's row (admitCharge), so a change committed in between is seen: a new mandate is
 * charged instead of the old one. One whose payment is under way (an answer lost, a crash) is
 * finished whatever changed since: the provider may hold the debit already.
 */
export async function makeCharge(ctx: AppContext, accounts: AccountCache, charge: ChargeRow, redecisions = 0): Promise<ChargeOutcome> {
  const now = toDbDateTime(ctx.clock.now());
  const account = await accounts.get(charge.account_id);
  const subscription = await subscriptionsRepository.find(ctx.db, charge.account_id, charge.subscription_id);
  if (!account || !subscription) throw new Error(`charge ${charge.id} has no account or subscription`);
  const started = await paymentsRepository.findByOriginKey(ctx.db, charge.account_id, chargeOriginKey(charge));
  if (!started && (await fateNow(ctx.db, charge, subscription)) !== 'charge' && (await endUnlessFreed(ctx, charge, now))) return 'skipped';
  // The charge is recorded in the transaction that records its payment's answer (one commit less);
  // when that answer was recorded before (a resumed run) it is recorded on its own below. That
  // transaction is kept, not a flag: one rolled back to break a deadlock (and made again) recorded nothing.
  let recordedIn: Knex.Transaction | undefined;
  const withChange = async (trx: Knex.Transaction, made: PaymentRow) => {
    recordedIn = undefined;
    if (await recordCharged(trx, charge, subscription, made, now)) recordedIn = trx;
  };
  let payment: PaymentRow | null;
  try {
    payment = started
      ? await resumePayment(ctx, account, started, { answeredInRequest: false, withChange })
      : await startCharge(ctx, account, charge, subscription, { withChange }, now);
  } catch (error) {
    // Paused, cancelled or moved to another mandate while this charge was being started: nothing was written; decided again.
    if (error instanceof SubscriptionChangedMeanwhile && redecisions < MAX_REDECISIONS) {
      return makeCharge(ctx, accounts, charge, redecisions + 1);
    }
    // What became of the payment decides, not the error: only a payment the provider certainly does
    // not hold (rejected: refused, and for a resumed one not found by our id either) is not charged.
    const kept = await paymentsRepository.findByOriginKey(ctx.db, charge.account_id, chargeOriginKey(charge));
    if (kept?.status === 'rejected') return notCharged(ctx, charge, subscription, kept.failure_reason ?? errorMessage(error), kept.id);
    // Kept `creating` (an answer lost, a rate limit): tried again, not before the payment's own next attempt.
    const retryAt = laterOf(toDbDateTime(msAfter(ctx.clock.now(), CHARGE_RETRY_AFTER_MS)), kept?.next_attempt_at ?? null);
    await retryDeadlocks(() => chargesRepository.postpone(ctx.db, charge, { retryAt, error: errorMessage(error), now }));
    if (error instanceof CreationOutcomeUnknownError) return 'unknown';
    ctx.logger.error('subscription charge failed; it is tried again', {
      accountId: charge.account_id,
      chargeId: charge.id,
      error: errorMessage(error),
    });
    return 'failed';
  }
  if (payment === null) return notCharged(ctx, charge, subscription, 'The mandate of this subscription is no longer valid', null);
  const made = payment;
  const recorded = recordedIn !== undefined && (await committed(recordedIn));
  if (!recorded) await retryDeadlocks(() => ctx.db.transaction((trx) => recordCharged(trx, charge, subscription, made, now)));
  return 'charged';
}

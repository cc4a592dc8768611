import type { Knex } from 'knex';
import type { AppContext } from '../../context';
import type { Account } from '../accounts/account';
import { isUniqueViolation } from '../../db/connect';
import { NotFoundError, ValidationError } from '../../errors';
import { WITHOUT_IDEMPOTENCY_KEY, type IdempotencyScope } from '../../db/idempotencyScope';
import { newId } from '../../ids';
import { formatCents, type Cents } from '../../money';
import { deliverEvent } from '../../events/delivery';
import { enqueueAccountEvent, insertEvent } from '../../events/events';
import { CreationOutcomeUnknownError, ProviderRejectedError } from '../../providers/errors';
import type { PaymentProvider, ProviderRefund } from '../../providers/types';
import { fromDbDateTime, toDbDateTime } from '../../time';
import { creditMoneyBack } from '../billing/moneyBack';
import { paymentsRepository, type PaymentRow } from '../payments/repository';
import { createOrRecover, nextResumeAt, pastKeyWindow } from '../payments/resumption';
import { FINAL_REFUND_STATUSES, refundsRepository, RELEASED_REFUND_STATUSES, type RefundRow, type RefundRowStatus } from './repository';

const REFUND_FAILED = 'Could not refund payment';

export interface RefundRequest {
  /** Cents; none: all that is left to refund. */
  amount?: Cents;
  description?: string;
  /** What the refund is made for, once (`double-<payment id>`): a second request answers the first refund. */
  originKey?: string;
  /**
   * The client's own reference of this refund (the store plugin's), unique per account: a second request with it,
   * however much later (past any idempotency key's window), answers the first refund instead of making another.
   */
  reference?: string;
}

/** The origin key of a refund made at the provider without us (its dashboard): recorded once per provider refund. */
export const externalRefundKey = (providerRefundId: string) => `external-refund-${providerRefundId}`;

/** The provider's key of a refund: derived from our row, so every retry of it is the same refund at the provider. */
export const refundKeyOf = (row: Pick<RefundRow, 'id'>) => `refund-${row.id}`;

/** Cents of a payment that can still be refunded: paid, minus refunds not failed, minus what the bank took back. */
export function refundableCents(payment: PaymentRow & { amount_refund_reserved?: number }): Cents {
  return Math.max(0, Number(payment.amount) - Number(payment.amount_charged_back ?? 0) - Number(payment.amount_refund_reserved ?? 0));
}

function notRefundable(payment: PaymentRow): ValidationError {
  const why =
    payment.status === 'refunded'
      ? 'it has been refunded in full already'
      : `only paid payments can be refunded; this one is ${payment.status}`;
  return ValidationError.field(REFUND_FAILED, 'payment', `The payment cannot be refunded: ${why}.`);
}

function referenceTaken(earlier: RefundRow): ValidationError {
  return ValidationError.field(
    REFUND_FAILED,
    'reference',
    `The reference is already used by refund ${earlier.id} of another payment (${earlier.payment_id}).`,
  );
}

/** The refund made before with the request's origin key or reference, if any: the answer to the request again. */
async function madeBefore(ctx: AppContext, accountId: string, paymentId: string, request: RefundRequest): Promise<RefundRow | undefined> {
  if (request.originKey) {
    const made = await refundsRepository.findByOriginKey(ctx.db, accountId, request.originKey);
    if (made) return made;
  }
  if (request.reference) {
    const made = await refundsRepository.findByReference(ctx.db, accountId, request.reference);
    if (made && made.payment_id !== paymentId) throw referenceTaken(made);
    if (made) return made;
  }
  return undefined;
}

function tooMuch(left: Cents, currency: string): ValidationError {
  return ValidationError.field(
    REFUND_FAILED,
    'amount',
    left > 0
      ? `The amount is more than can still be refunded (${formatCents(left)} ${currency}).`
      : 'Nothing is left to refund of this payment (refunded or charged back in full).',
  );
}

/**
 * Refunds part or all of a paid payment (`POST /api/v2/payments/{id}/refunds`). Our row comes first, with its
 * reservation on the payment taken in the same transaction (the database refuses more than is left, whatever
 * races); then the provider is asked with the row's key. A lost answer keeps the row `creating` (503, retry with
 * the same Idempotency-Key, or the finishing job resumes it); it is never made twice.
 */
export async function requestRefund(
  ctx: AppContext,
  account: Account,
  paymentId: string,
  request: RefundRequest,
  idempotency: IdempotencyScope = WITHOUT_IDEMPOTENCY_KEY,
): Promise<RefundRow> {
  if (idempotency.resumedResourceId) {
    const earlier = await refundsRepository.find(ctx.db, account.id, idempotency.resumedResourceId);
    if (earlier) return resumeRefund(ctx, account, earlier);
  }
  const made = await madeBefore(ctx, account.id, paymentId, request);
  if (made) return resumeRefund(ctx, account, made);
  const payment = await paymentsRepository.find(ctx.db, account.id, paymentId);
  if (!payment) throw new NotFoundError('Payment');
  if (payment.status !== 'paid' || !payment.provider_payment_id) throw notRefundable(payment);
  const left = refundableCents(payment);
  const amount = request.amount ?? left;
  if (amount <= 0 || amount > left) throw tooMuch(left, payment.currency);
  const provider = await ctx.providers.forAccount(account);
  const now = toDbDateTime(ctx.clock.now());
  const row: RefundRow = {
    id: newId('rfd'),
    account_id: account.id,
    payment_id: payment.id,
    amount,
    currency: payment.currency,
    description: (request.description ?? `Refund of ${payment.description}`).slice(0, 191),
    status: 'creating',
    provider_refund_id: null,
    origin_key: request.originKey ?? null,
    create_attempts: 0,
    next_attempt_at: toDbDateTime(new Date(ctx.clock.now().getTime() + 2 * 60 * 1000)),
    failure_reason: null,
    sequence: null,
    reference: request.reference ?? null,
    created_at: now,
    updated_at: now,
  };
  try {
    await ctx.db.transaction(async (trx) => {
      const sequence = await refundsRepository.reserve(trx, account.id, payment.id, amount);
      if (sequence === null) {
        const current = await paymentsRepository.find(trx, account.id, payment.id);
        if (!current || current.status !== 'paid') throw notRefundable(current ?? payment);
        throw tooMuch(refundableCents(current), payment.currency);
      }
      row.sequence = sequence;
      await refundsRepository.insert(trx, row);
      await idempotency.remember(trx, row.id);
    });
  } catch (error) {
    if (!isUniqueViolation(error) || (!request.originKey && !request.reference)) throw error;
    // Another instance made this refund a moment ago: the unique origin key (or reference) let only one row in.
    const winner = await madeBefore(ctx, account.id, paymentId, request);
    if (!winner) throw error;
    return resumeRefund(ctx, account, winner);
  }
  ctx.logger.info('refund written; asking the provider', { accountId: account.id, refundId: row.id, paymentId: payment.id, amount });
  return sendRefund(ctx, provider, row, payment, false);
}

/** Brings a refund left `creating` to its outcome at the provider; any other is answered as it is. */
export async function resumeRefund(ctx: AppContext, account: Pick<Account, 'id'>, row: RefundRow): Promise<RefundRow> {
  if (row.status !== 'creating') return row;
  const payment = await paymentsRepository.find(ctx.db, row.account_id, row.payment_id);
  if (!payment) throw new NotFoundError('Payment');
  const provider = await ctx.providers.forAccount(account);
  return sendRefund(ctx, provider, row, payment, true);
}

async function sendRefund(
  ctx: AppContext,
  provider: PaymentProvider,
  row: RefundRow,
  payment: PaymentRow,
  resumed: boolean,
): Promise<RefundRow> {
  const providerPaymentId = payment.provider_payment_id;
  if (!providerPaymentId) throw notRefundable(payment);
  const age = ctx.clock.now().getTime() - fromDbDateTime(row.created_at).getTime();
  const keepForLater = async (cause: unknown): Promise<Error> => {
    const attempts = Number(row.create_attempts) + 1;
    const now = ctx.clock.now();
    await refundsRepository.updateIfStatus(ctx.db, row.account_id, row.id, 'creating', {
      create_attempts: attempts,
      next_attempt_at: toDbDateTime(nextResumeAt(now, attempts, cause)),
      updated_at: toDbDateTime(now),
    });
    ctx.logger.warn('refund not confirmed by the provider; kept to be resumed', {
      accountId: row.account_id,
      refundId: row.id,
      attempts,
      cause: cause instanceof Error ? cause.message : String(cause),
    });
    return new CreationOutcomeUnknownError(`refund ${row.id}`, cause);
  };
  return createOrRecover<ProviderRefund, RefundRow>({
    resumed,
    pastKeyWindow: () => pastKeyWindow(provider, age),
    // A merchant waiting for the answer is told a refusal at once; an automatic refund is tried again.
    payerWaits: row.origin_key === null,
    lookUp: async () => {
      try {
        return await provider.findRefundByReference(providerPaymentId, row.id);
      } catch (error) {
        throw await keepForLater(error);
      }
    },
    create: () =>
      provider.createRefund(
        providerPaymentId,
        { amount: Number(row.amount), currency: row.currency, description: row.description, reference: row.id },
        refundKeyOf(row),
      ),
    recordFound: (found) => applyProviderRefund(ctx, row, found),
    recordCreated: (created) => applyProviderRefund(ctx, row, created),
    keepForLater,
    refused: async (error) => {
      const reason = error instanceof ProviderRejectedError ? error.detail : error instanceof Error ? error.message : String(error);
      await moveRefund(ctx, row, 'failed', { failure_reason: reason.slice(0, 191), next_attempt_at: null });
    },
  });
}

/**
 * A refund that went through corrects the payment's invoice: a credit note here (and a credit invoice in the
 * account's bookkeeping system), in the transaction that records it as `refunded`, once per refund.
 */
async function onRefundSettled(ctx: AppContext, trx: Knex.Transaction, refund: RefundRow): Promise<void> {
  await creditMoneyBack(ctx, trx, {
    accountId: refund.account_id,
    paymentId: refund.payment_id,
    amount: Number(refund.amount),
    reason: 'refund',
    sourceKey: `refund-${refund.id}`,
  });
}

/** The event names of a move from one refund status to another. */
function eventsOf(from: RefundRowStatus, to: RefundRowStatus): string[] {
  const names: string[] = [];
  if (from === 'creating' && !RELEASED_REFUND_STATUSES.has(to)) names.push('refund.created');
  if (to === 'refunded') names.push('refund.refunded');
  if (RELEASED_REFUND_STATUSES.has(to)) names.push('refund.failed');
  return names;
}

/**
 * Moves a refund from the status it has in `row` to `to`, if it still has it: the status, the release of its
 * reservation (failed, canceled), its events and the settle hook commit together. The row as it now is.
 */
async function moveRefund(ctx: AppContext, row: RefundRow, to: RefundRowStatus, changes: Partial<RefundRow>): Promise<RefundRow> {
  const now = toDbDateTime(ctx.clock.now());
  const after: RefundRow = { ...row, ...changes, status: to, updated_at: now };
  const eventIds = await ctx.db.transaction(async (trx) => {
    if (!(await refundsRepository.updateIfStatus(trx, row.account_id, row.id, row.status, { ...changes, status: to, updated_at: now })))
      return null;
    if (RELEASED_REFUND_STATUSES.has(to)) await refundsRepository.release(trx, row.account_id, row.payment_id, Number(row.amount));
    if (to === 'refunded') await onRefundSettled(ctx, trx, after);
    return enqueueRefundEvents(trx, after, row.status, now);
  });
  const current = await refundsRepository.find(ctx.db, row.account_id, row.id);
  if (!current) throw new Error(`Refund ${row.id} disappeared`);
  if (eventIds === null) return current;
  ctx.logger.info('refund status changed', { accountId: row.account_id, refundId: row.id, from: row.status, to });
  for (const eventId of eventIds) ctx.background.run('deliver webhook event', () => deliverEvent(ctx, eventId));
  return current;
}

function refundEventBody(row: RefundRow): Record<string, unknown> {
  return { payment_id: row.payment_id, status: row.status, amount: formatCents(Number(row.amount)), currency: row.currency };
}

/**
 * The events of a refund's move, in its transaction: to the account's endpoint, and to its payment's webhook_url
 * (`{"id": "pay_…", "event": "refund.refunded", "refund_id": …}`), where the store's plugin learns of a refund whose
 * answer it lost, or one made outside the store, and records it. Answers the events' ids.
 */
async function enqueueRefundEvents(trx: Knex.Transaction, row: RefundRow, from: RefundRowStatus, now: string): Promise<string[]> {
  const names = eventsOf(from, row.status);
  if (names.length === 0) return [];
  const payment = await paymentsRepository.find(trx, row.account_id, row.payment_id);
  const ids: string[] = [];
  for (const name of names) {
    const id = await enqueueAccountEvent(trx, row.account_id, { name, resourceId: row.id, body: refundEventBody(row) }, now);
    if (id) ids.push(id);
    if (!payment?.webhook_url) continue;
    const { payment_id: paymentId, ...facts } = refundEventBody(row);
    const payload = JSON.stringify({ id: paymentId, event: name, refund_id: row.id, ...facts });
    ids.push(
      await insertEvent(
        trx,
        { accountId: row.account_id, paymentId: payment.id, resourceId: row.id, event: name, payload, url: payment.webhook_url },
        now,
      ),
    );
  }
  return ids;
}

/** Applies what the provider says about one of our refunds; a settled refund stays as it is. */
export async function applyProviderRefund(ctx: AppContext, row: RefundRow, remote: ProviderRefund): Promise<RefundRow> {
  if (FINAL_REFUND_STATUSES.has(row.status)) return row;
  if (row.status === remote.status && row.provider_refund_id === remote.id) return row;
  return moveRefund(ctx, row, remote.status, { provider_refund_id: remote.id, next_attempt_at: null });
}

/**
 * A refund made at the provider without us (in its dashboard), noticed when its payment is read: recorded as a
 * refund of ours (origin key `external-refund-<provider refund id>`, unique per account, so a sync run twice or two
 * webhook calls at the same moment record it once), its amount taken from the payment, and — when it went out —
 * credited like any refund. Nothing is refused: the money went out already.
 */
async function recordRefundMadeElsewhere(
  ctx: AppContext,
  providerName: string,
  payment: PaymentRow,
  remote: ProviderRefund,
): Promise<void> {
  const originKey = externalRefundKey(remote.id);
  if (await refundsRepository.findByOriginKey(ctx.db, payment.account_id, originKey)) return;
  const now = toDbDateTime(ctx.clock.now());
  const row: RefundRow = {
    id: newId('rfd'),
    account_id: payment.account_id,
    payment_id: payment.id,
    amount: remote.amount,
    currency: remote.currency,
    description: `Refunded at ${providerName} without this service (${remote.id})`.slice(0, 191),
    status: remote.status,
    provider_refund_id: remote.id,
    origin_key: originKey,
    create_attempts: 0,
    next_attempt_at: null,
    failure_reason: null,
    sequence: null,
    reference: null,
    created_at: toDbDateTime(remote.createdAt),
    updated_at: now,
  };
  let eventIds: string[];
  try {
    eventIds = await ctx.db.transaction(async (trx) => {
      row.sequence = await refundsRepository.takeForRefundMadeElsewhere(trx, payment.account_id, payment.id, Number(remote.amount));
      await refundsRepository.insert(trx, row);
      if (row.status === 'refunded') await onRefundSettled(ctx, trx, row);
      return enqueueRefundEvents(trx, row, 'creating', now);
    });
  } catch (error) {
    // Another sync of the same payment recorded it a moment ago: its unique origin key let one row in.
    if (isUniqueViolation(error)) return;
    throw error;
  }
  ctx.logger.warn('a refund made at the provider without this service was recorded', {
    accountId: row.account_id,
    paymentId: row.payment_id,
    refundId: row.id,
    providerRefundId: remote.id,
    amount: row.amount,
    status: row.status,
  });
  for (const eventId of eventIds) ctx.background.run('deliver webhook event', () => deliverEvent(ctx, eventId));
}

/**
 * Reads the refunds of a payment at the provider and applies those that are ours (by our id in their metadata):
 * Mollie calls the payment's webhook when one of its refunds changes. `providerRefunded` is the payment's refunded
 * amount at the provider: when it is more than our refunds account for, a refund was made there without us, and is
 * recorded (recordRefundMadeElsewhere). Asks the provider nothing when neither applies.
 */
export async function syncRefundsOf(ctx: AppContext, payment: PaymentRow, providerRefunded?: Cents): Promise<void> {
  if (!payment.provider_payment_id) return;
  const rows = await refundsRepository.forPayment(ctx.db, payment.account_id, payment.id);
  const ours = rows.filter((row) => !FINAL_REFUND_STATUSES.has(row.status));
  // What the provider counts of ours: refunds it confirmed that did not fail (a `creating` one may be unknown to it).
  const accounted = rows
    .filter((row) => row.status !== 'creating' && !RELEASED_REFUND_STATUSES.has(row.status))
    .reduce((sum, row) => sum + Number(row.amount), 0);
  const madeElsewhere = providerRefunded !== undefined && providerRefunded > accounted;
  if (ours.length === 0 && !madeElsewhere) return;
  const provider = await ctx.providers.forAccount({ id: payment.account_id });
  const remote = await provider.listRefunds(payment.provider_payment_id);
  const isOurs = (refund: ProviderRefund, row: RefundRow) =>
    refund.reference === row.id || (row.provider_refund_id !== null && refund.id === row.provider_refund_id);
  for (const row of ours) {
    const found = remote.find((refund) => isOurs(refund, row));
    if (found) await applyProviderRefund(ctx, row, found);
  }
  if (!madeElsewhere) return;
  // Our rows again, read after the list: a refund of ours made while it was asked for has its row committed before
  // Mollie had it (our row first), so it is found here and never taken for one made elsewhere.
  const known = await refundsRepository.forPayment(ctx.db, payment.account_id, payment.id);
  // Oldest first, so that their sequence follows the order they were made in.
  const elsewhere = remote
    .filter((refund) => !RELEASED_REFUND_STATUSES.has(refund.status) && !known.some((row) => isOurs(refund, row)))
    .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
  for (const refund of elsewhere) await recordRefundMadeElsewhere(ctx, provider.name, payment, refund);
}

/** `GET /api/v2/payments/{id}/refunds`: the payment's refunds, oldest first. */
export async function listRefunds(ctx: AppContext, account: Account, paymentId: string): Promise<RefundRow[]> {
  const payment = await paymentsRepository.find(ctx.db, account.id, paymentId);
  if (!payment) throw new NotFoundError('Payment');
  return refundsRepository.forPayment(ctx.db, account.id, paymentId);
}

export async function getRefund(ctx: AppContext, account: Account, paymentId: string, refundId: string): Promise<RefundRow> {
  const row = await refundsRepository.find(ctx.db, account.id, refundId);
  if (!row || row.payment_id !== paymentId) throw new NotFoundError('Refund');
  return row;
}

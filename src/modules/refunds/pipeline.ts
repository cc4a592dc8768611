import type { AppContext } from '../../context';
import type { Account } from '../accounts/account';
import { isUniqueViolation } from '../../db/connect';
import { NotFoundError, ValidationError, errorMessage } from '../../errors';
import { WITHOUT_IDEMPOTENCY_KEY, type IdempotencyScope } from '../../db/idempotencyScope';
import { newId } from '../../ids';
import { formatCents, type Cents } from '../../money';
import { CreationOutcomeUnknownError, ProviderRejectedError } from '../../providers/errors';
import type { PaymentProvider, ProviderRefund } from '../../providers/types';
import { fromDbDateTime, msAfter, toDbDateTime } from '../../time';
import { paymentsRepository, type PaymentRow } from '../payments/repository';
import { createOrRecover, nextResumeAt, pastKeyWindow } from '../../providers/resumption';
import { refundsRepository, type RefundRow } from './repository';
import { applyProviderRefund, moveRefund } from './statusChange';

/*
 * The refund pipeline: our row first, with its reservation on the payment; then the provider, asked with the row's
 * key; then the outcome (statusChange.ts). A refund whose answer was lost is resumed with the same key.
 */

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
    next_attempt_at: toDbDateTime(msAfter(ctx.clock.now(), 2 * 60 * 1000)),
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
      cause: errorMessage(cause),
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
      const reason = error instanceof ProviderRejectedError ? error.detail : errorMessage(error);
      await moveRefund(ctx, row, 'failed', { failure_reason: reason.slice(0, 191), next_attempt_at: null });
    },
  });
}

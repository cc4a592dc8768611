import type { Knex } from 'knex';
import type { AppContext } from '../../context';
import type { Account } from '../accounts/account';
import { isUniqueViolation } from '../../db/connect';
import { retryDeadlocks } from '../../db/deadlocks';
import { ConflictError, errorMessage } from '../../errors';
import { WITHOUT_IDEMPOTENCY_KEY, writeRemembered, type IdempotencyScope } from '../../db/idempotencyScope';
import { newId } from '../../ids';
import { CreationOutcomeUnknownError, ProviderRejectedError } from '../../providers/errors';
import type { PaymentProvider, ProviderPayment, ProviderPaymentInput } from '../../providers/types';
import { fromDbDateTime, msAfter, msBefore, toDbDateTime } from '../../time';
import { providerWebhookUrl } from '../../providers/webhookUrl';
import { paymentsRepository, type PaymentRow } from './repository';
import { createOrRecover, FIRST_RESUME_AFTER_MS, LOOKUP_MARGIN_MS, nextResumeAt, pastKeyWindow } from '../../providers/resumption';
import { scheduleRecheck } from './rejectedRecheck';
import { applyProviderPayment, rejectPayment, type StatusChangeOptions } from './statusChange';

/**
 * THE way every payment is made, whatever it is for (an API call, a link, a subscription charge, a
 * follow-up retry, a store order). Recovery points, after "Implementing Stripe-like idempotency keys":
 *
 * 1. our row is written first, status `creating` (with the request's Idempotency-Key pointing at it);
 * 2. the provider is called with a key derived from that row (`payment-<id>`);
 * 3. its answer is recorded (status open/pending…), or its refusal (`rejected`).
 *
 * When the answer is lost (timeout, dropped connection, 5xx, crash) the outcome is unknown: the row
 * stays `creating` and is resumed — by a retry of the client's request, or by the job that finishes
 * stalled creations, with backoff — with the same key, which the provider answers with the same
 * payment. Once the provider has forgotten the key, the payment is first looked up by our id in its
 * metadata. A refusal of a resumed call proves nothing about the first one (a 400 for a key reused
 * with other parameters, a 404, a 422): the row is `rejected` only when a look-up by our id finds no
 * payment. A rate limit (and, for a payment no payer waits for, refused credentials) changes nothing
 * and is tried again later. Nothing is ever deleted, and nothing is created twice.
 */

/** A payment of the same link or order is under way (409): its outcome comes first. */
export class PaymentInProgressError extends ConflictError {
  constructor(readonly payment: PaymentRow) {
    super(
      `Payment ${payment.id} for the same ${payment.purpose} is ${payment.status}; wait for its outcome before making another`,
      'payment_in_progress',
    );
  }
}

/**
 * What a feature asks the pipeline to make: the fields of the payment row it fills in, named as the
 * features name them, each of the row's own type (rowFrom writes them into the row).
 */
export interface PaymentRequest {
  purpose: PaymentRow['purpose'];
  /** The link, charge, follow-up or order the payment is for (null for a plain API payment). */
  purposeId: PaymentRow['purpose_id'];
  /**
   * Set when the payment must exist at most once (a subscription charge, a follow-up retry): a
   * second request with the same key resumes the first payment instead of making another.
   */
  originKey?: NonNullable<PaymentRow['origin_key']>;
  /**
   * Set when only one payment may be under way at a time (`link-<id>`, `order-<id>`): while one
   * with this key is not settled, making another throws PaymentInProgressError naming it.
   */
  inProgressKey?: NonNullable<PaymentRow['in_progress_key']>;
  subscriptionId?: NonNullable<PaymentRow['subscription_id']>;
  customer: { id: NonNullable<PaymentRow['customer_id']>; providerCustomerId: NonNullable<PaymentRow['provider_customer_id']> };
  sequenceType: PaymentRow['sequence_type'];
  /** The mandate a recurring payment is charged on. */
  mandateId: PaymentRow['provider_mandate_id'];
  amount: PaymentRow['amount'];
  currency: PaymentRow['currency'];
  description: PaymentRow['description'];
  method: PaymentRow['method'];
  /** Where the payer returns after the checkout (none for a recurring charge). */
  redirectUrl: PaymentRow['redirect_url'];
  /** The client's address for events about this payment. */
  webhookUrl: PaymentRow['webhook_url'];
  /** Kept for reference; the provider always uses the account's own profile. */
  profileId: PaymentRow['provider_profile_id'];
  /**
   * Runs first in the transaction that writes our row, before it: throwing refuses the payment with
   * nothing written. A charge decides there, under its subscription's row, whether it is still to be made.
   */
  admit?: (trx: Knex.Transaction) => Promise<void>;
}

/**
 * A payment that could not be created within a day is given up: its payer left long ago. Only after
 * the provider was asked and holds no such payment, so this never drops one that exists.
 */
export const ABANDON_AFTER_MS = 24 * 60 * 60 * 1000;

export const providerKeyOf = (row: Pick<PaymentRow, 'id'>) => `payment-${row.id}`;

function providerInputOf(ctx: AppContext, account: Account, provider: PaymentProvider, row: PaymentRow): ProviderPaymentInput {
  return {
    amount: row.amount,
    currency: row.currency,
    description: row.description,
    sequenceType: row.sequence_type,
    customerId: row.provider_customer_id,
    mandateId: row.provider_mandate_id,
    method: row.method,
    redirectUrl: row.redirect_url,
    webhookUrl: providerWebhookUrl(ctx.config.publicUrl, provider.name, account),
    reference: row.id,
  };
}

function rowFrom(account: Account, request: PaymentRequest, now: string): PaymentRow {
  return {
    id: newId('pay'),
    account_id: account.id,
    customer_id: request.customer.id,
    subscription_id: request.subscriptionId ?? null,
    purpose: request.purpose,
    purpose_id: request.purposeId,
    origin_key: request.originKey ?? null,
    in_progress_key: request.inProgressKey ?? null,
    provider_payment_id: null,
    provider_customer_id: request.customer.providerCustomerId,
    provider_mandate_id: request.mandateId,
    provider_profile_id: request.profileId,
    sequence_type: request.sequenceType,
    status: 'creating',
    amount: request.amount,
    currency: request.currency,
    description: request.description,
    method: request.method,
    redirect_url: request.redirectUrl,
    webhook_url: request.webhookUrl,
    checkout_url: null,
    failure_reason: null,
    failure_code: null,
    paid_at: null,
    next_attempt_at: toDbDateTime(msAfter(fromDbDateTime(now), FIRST_RESUME_AFTER_MS)),
    create_attempts: 0,
    created_at: now,
    updated_at: now,
  };
}

interface SendOptions extends StatusChangeOptions {
  /** An earlier attempt may have reached the provider: its answer may be a replay of back then. */
  resumed: boolean;
}

/** Refusals are kept with the provider's reason; the client sees the refusal itself. */
function refusalOf(error: unknown): { code: string; message: string } {
  if (error instanceof ProviderRejectedError) return { code: error.code, message: error.detail };
  const code =
    typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string' ? error.code : 'provider_error';
  return { code, message: errorMessage(error) };
}

/**
 * Keeps a row whose attempt did not settle it, to be resumed after a backoff (and never before a
 * rate limit's Retry-After); answers the error that tells the caller so.
 */
async function keepForLater(ctx: AppContext, row: PaymentRow, cause: unknown): Promise<CreationOutcomeUnknownError> {
  const now = ctx.clock.now();
  const attempts = Number(row.create_attempts) + 1;
  const nextAttemptAt = nextResumeAt(now, attempts, cause);
  await paymentsRepository.keepCreating(ctx.db, row.account_id, row.id, {
    attempts,
    nextAttemptAt: toDbDateTime(nextAttemptAt),
    now: toDbDateTime(now),
  });
  ctx.logger.warn('payment not settled at the provider; kept to be resumed', {
    accountId: row.account_id,
    paymentId: row.id,
    purpose: row.purpose,
    attempts,
    nextAttemptAt: toDbDateTime(nextAttemptAt),
    cause: errorMessage(cause),
  });
  return new CreationOutcomeUnknownError(`payment ${row.id}`, cause);
}

/** The payment an earlier attempt may have made, found by our id in its metadata; a failed look-up keeps the row. */
async function lookUp(ctx: AppContext, provider: PaymentProvider, row: PaymentRow): Promise<ProviderPayment | null> {
  const createdAfter = msBefore(fromDbDateTime(row.created_at), LOOKUP_MARGIN_MS);
  try {
    return await provider.findPaymentByReference({ reference: row.id, customerId: row.provider_customer_id, createdAfter });
  } catch (error) {
    throw await keepForLater(ctx, row, error);
  }
}

async function sendToProvider(
  ctx: AppContext,
  account: Account,
  provider: PaymentProvider,
  row: PaymentRow,
  options: SendOptions,
): Promise<PaymentRow> {
  const age = ctx.clock.now().getTime() - fromDbDateTime(row.created_at).getTime();
  return createOrRecover<ProviderPayment, PaymentRow>({
    resumed: options.resumed,
    pastKeyWindow: () => pastKeyWindow(provider, age),
    // A payer at the checkout is told a refusal at once; a charge nobody waits for is tried again.
    payerWaits: row.sequence_type !== 'recurring',
    lookUp: () => lookUp(ctx, provider, row),
    afterFruitlessLookUp: async () => {
      if (age <= ABANDON_AFTER_MS) return undefined;
      ctx.logger.warn('payment given up: not created at the provider within a day', { accountId: row.account_id, paymentId: row.id });
      const givenUp = await rejectPayment(
        ctx,
        row,
        { code: 'not_created', message: 'The payment could not be created at the provider within a day' },
        options,
      );
      await scheduleRecheck(ctx, row);
      return givenUp;
    },
    create: () => provider.createPayment(providerInputOf(ctx, account, provider, row), providerKeyOf(row)),
    recordFound: (found) => applyProviderPayment(ctx, row, found, options),
    recordCreated: async (created) => {
      const recorded = await applyProviderPayment(ctx, row, created, options);
      if (!options.resumed) return recorded;
      // A replayed answer tells the payment as it was when first created; it may have moved on since
      // (and its webhook found no provider id here then). Ask for it as it is now.
      try {
        return await applyProviderPayment(ctx, recorded, await provider.getPayment(created.id), { ...options, withChange: undefined });
      } catch (error) {
        ctx.logger.warn('resumed payment recorded; its current status follows by webhook or reconciliation', {
          accountId: row.account_id,
          paymentId: row.id,
          error: errorMessage(error),
        });
        return recorded;
      }
    },
    keepForLater: (cause) => keepForLater(ctx, row, cause),
    refused: async (error) => {
      await rejectPayment(ctx, row, refusalOf(error), options);
      // An earlier attempt's outcome was unknown: reconciliation looks for it once more, later.
      if (options.resumed) await scheduleRecheck(ctx, row);
    },
  });
}

/**
 * Makes a payment through the pipeline. With an Idempotency-Key whose earlier attempt already wrote
 * a payment, that payment is resumed instead. A provider refusal is thrown as it came (the row is
 * kept as `rejected`); an unknown outcome throws CreationOutcomeUnknownError (the row is kept).
 */
export async function startPayment(
  ctx: AppContext,
  account: Account,
  request: PaymentRequest,
  idempotency: IdempotencyScope = WITHOUT_IDEMPOTENCY_KEY,
  recording: Pick<StatusChangeOptions, 'withChange'> = {},
): Promise<PaymentRow> {
  if (idempotency.resumedResourceId) {
    const earlier = await paymentsRepository.find(ctx.db, account.id, idempotency.resumedResourceId);
    if (earlier) return resumePayment(ctx, account, earlier, { answeredInRequest: true, ...recording });
  }
  const answeredInRequest = request.originKey === undefined;
  // A payment made before under this origin key is found by the key's uniqueness below, not looked for first.
  // Chosen before anything is written: an account without a provider leaves no row behind.
  const provider = await ctx.providers.forAccount(account);
  const row = rowFrom(account, request, toDbDateTime(ctx.clock.now()));
  try {
    // On MySQL the insert waits for the rows it refers to (its customer, its subscription), so it can be
    // a deadlock's victim; rolled back whole, it is made again.
    await retryDeadlocks(() =>
      writeRemembered(ctx.db, idempotency, row.id, async (trx) => {
        await request.admit?.(trx);
        await paymentsRepository.insert(trx, row);
      }),
    );
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    // Another instance made this payment a moment ago: the unique origin key let only one row in.
    const winner = request.originKey ? await paymentsRepository.findByOriginKey(ctx.db, account.id, request.originKey) : undefined;
    if (winner) return resumePayment(ctx, account, winner, { answeredInRequest, ...recording });
    // Another payment of the same link or order is under way: the unique in-progress key let only it in.
    const underWay = request.inProgressKey ? await paymentsRepository.findInProgress(ctx.db, account.id, request.inProgressKey) : undefined;
    if (underWay) throw new PaymentInProgressError(underWay);
    throw error;
  }
  // A payment made by the service itself (a charge) is told to the client by events, not by an answer.
  return sendToProvider(ctx, account, provider, row, { answeredInRequest, resumed: false, ...recording });
}

/**
 * Brings a payment left `creating` to its outcome at the provider; a payment past that is answered
 * as it is. A payment that was refused is refused again to whoever asks (a retry of the request).
 */
export async function resumePayment(ctx: AppContext, account: Account, row: PaymentRow, options: StatusChangeOptions): Promise<PaymentRow> {
  if (row.status === 'rejected') throw new ProviderRejectedError(row.failure_reason ?? 'the payment was refused', null);
  if (row.status !== 'creating') return row;
  const provider = await ctx.providers.forAccount(account);
  return sendToProvider(ctx, account, provider, row, { ...options, resumed: true });
}

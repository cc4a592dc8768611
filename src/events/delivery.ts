import type { AppContext } from '../context';
import { fromDbDateTime, msAfter, toDbDateTime } from '../time';
import { nextAttemptAfterFailure } from '../time/backoff';
import { postToWebhookUrl, type AttemptResult } from './post';
import { outboundEventsRepository, type OutboundEventRow } from './repository';
import { webhookSecretOf } from './secret';
import { signatureHeader } from './signature';
import { errorMessage } from '../errors';

const ATTEMPT_TIMEOUT_MS = 10_000;
/** An attempt's claim outlives its timeout, so a crashed attempt is retried soon, never twice at once. */
const CLAIM_MS = 60_000;

/** The claim of an event's first attempt, taken when it is written by whoever attempts it right after the commit. */
export const firstAttemptClaim = (now: Date): string => toDbDateTime(msAfter(now, CLAIM_MS));

export type DeliveryOutcome = 'delivered' | 'retrying' | 'dead' | 'skipped';

/**
 * One delivery attempt of one event, if it is due and nobody else is attempting it (`claimed`: its
 * writer took the claim for this attempt: firstAttemptClaim). Any 2xx is a delivery; anything else is
 * retried with backoff until 26 hours after the event, then it is dead.
 */
export async function deliverEvent(ctx: AppContext, eventId: string, options: { claimed?: boolean } = {}): Promise<DeliveryOutcome> {
  const started = ctx.clock.now();
  const now = toDbDateTime(started);
  const claimed = options.claimed || (await outboundEventsRepository.claim(ctx.db, eventId, now, firstAttemptClaim(started)));
  if (!claimed) return 'skipped';
  const event = await outboundEventsRepository.find(ctx.db, eventId);
  if (!event || event.status !== 'pending') return 'skipped';

  const result = await post(ctx, event, started);
  const attempts = event.attempts + 1;
  // The client sees only the generic failure; the detailed cause is for our log.
  const attempt = { attempts, last_attempt_at: now, last_status_code: result.status, last_error: result.failure };
  const log = {
    accountId: event.account_id,
    eventId: event.id,
    paymentId: event.payment_id,
    event: event.event,
    attempts,
    status: result.status,
  };

  if (result.failure === null) {
    await outboundEventsRepository.update(ctx.db, event.id, { ...attempt, status: 'delivered', delivered_at: now, next_attempt_at: null });
    ctx.logger.info('webhook event delivered', log);
    return 'delivered';
  }
  const failure = { ...log, error: result.failure, cause: result.detail };
  const next = nextAttemptAfterFailure(fromDbDateTime(event.created_at), started, attempts);
  if (next === null) {
    await outboundEventsRepository.update(ctx.db, event.id, { ...attempt, status: 'dead', next_attempt_at: null });
    ctx.logger.error('webhook event dead: undelivered for 26 hours', failure);
    return 'dead';
  }
  await outboundEventsRepository.update(ctx.db, event.id, { ...attempt, next_attempt_at: toDbDateTime(next) });
  ctx.logger.warn('webhook event delivery failed; will retry', { ...failure, nextAttemptAt: toDbDateTime(next) });
  return 'retrying';
}

/**
 * The signed POST of one event. What throws on our side, before or while sending (a webhook secret
 * that cannot be decrypted after an APP_KEY change), is a failed attempt like a receiver's 500: it
 * is retried with backoff and ends dead, instead of escaping with the event claimed and uncounted.
 */
async function post(ctx: AppContext, event: OutboundEventRow, started: Date): Promise<AttemptResult> {
  try {
    const secret = await webhookSecretOf(ctx, event.account_id);
    const headers = {
      'Content-Type': 'application/json',
      'User-Agent': 'recurring-payments-service/webhooks',
      'X-Event-Id': event.id, // the same on every attempt: receivers deduplicate on it
      'X-Signature': signatureHeader(secret, event.payload, Math.floor(started.getTime() / 1000)),
    };
    return await postToWebhookUrl(event.url, event.payload, headers, {
      allowPrivate: ctx.config.outboundAllowPrivate,
      timeoutMs: ATTEMPT_TIMEOUT_MS,
    });
  } catch (error) {
    return { status: null, failure: 'not sent', detail: errorMessage(error) };
  }
}

/**
 * The job's body: every due event gets one attempt. One that throws even so (its row cannot be read
 * or written) is counted failed and the batch goes on; its claim runs out, so a later run tries it again.
 */
export async function deliverDueEvents(
  ctx: AppContext,
  signal: AbortSignal,
  batchSize = 100,
): Promise<{ processed: number; failed: number }> {
  const due = await outboundEventsRepository.due(ctx.db, toDbDateTime(ctx.clock.now()), batchSize);
  const result = { processed: 0, failed: 0 };
  for (const { id } of due) {
    if (signal.aborted) break;
    let outcome: DeliveryOutcome;
    try {
      outcome = await deliverEvent(ctx, id);
    } catch (error) {
      ctx.logger.error('webhook event attempt failed; tried again after its claim', {
        eventId: id,
        error: errorMessage(error),
      });
      outcome = 'retrying';
    }
    if (outcome === 'skipped') continue;
    result.processed += 1;
    if (outcome !== 'delivered') result.failed += 1;
  }
  return result;
}

import type { AppContext } from '../../context';
import type { JobResult } from '../../jobs/types';
import { fromDbDateTime, toDbDateTime } from '../../time';
import { DELIVERY_WINDOW_MS, delayAfterFailedAttempts } from './backoff';
import { outboundEventsRepository } from './repository';
import { webhookSecretOf } from './secret';
import { signatureHeader } from './signature';

const ATTEMPT_TIMEOUT_MS = 10_000;
/** An attempt's claim outlives its timeout, so a crashed attempt is retried soon, never twice at once. */
const CLAIM_MS = 60_000;

export type DeliveryOutcome = 'delivered' | 'retrying' | 'dead' | 'skipped';

async function post(url: string, body: string, headers: Record<string, string>): Promise<{ status: number | null; error: string | null }> {
  try {
    // Redirects are not followed: a receiver answers where it was registered, or the attempt fails.
    const response = await fetch(url, { method: 'POST', headers, body, redirect: 'manual', signal: AbortSignal.timeout(ATTEMPT_TIMEOUT_MS) });
    await response.body?.cancel();
    return { status: response.status, error: response.ok ? null : `HTTP ${response.status}` };
  } catch (error) {
    const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
    return { status: null, error: `${error instanceof Error ? error.message : String(error)}${cause}`.slice(0, 500) };
  }
}

/**
 * One delivery attempt of one event, if it is due and nobody else is attempting it. Any 2xx is a
 * delivery; anything else is retried with backoff until 26 hours after the event, then it is dead.
 */
export async function deliverEvent(ctx: AppContext, eventId: string): Promise<DeliveryOutcome> {
  const started = ctx.clock.now();
  const now = toDbDateTime(started);
  const claimed = await outboundEventsRepository.claim(ctx.db, eventId, now, toDbDateTime(new Date(started.getTime() + CLAIM_MS)));
  if (!claimed) return 'skipped';
  const event = await outboundEventsRepository.find(ctx.db, eventId);
  if (!event) return 'skipped';

  const secret = await webhookSecretOf(ctx, event.account_id);
  const result = await post(event.url, event.payload, {
    'Content-Type': 'application/json',
    'User-Agent': 'recurring-payments-service/webhooks',
    'X-Event-Id': event.id, // the same on every attempt: receivers deduplicate on it
    'X-Signature': signatureHeader(secret, event.payload, Math.floor(started.getTime() / 1000)),
  });
  const attempts = event.attempts + 1;
  const attempt = { attempts, last_attempt_at: now, last_status_code: result.status, last_error: result.error };
  const log = { accountId: event.account_id, eventId: event.id, paymentId: event.payment_id, event: event.event, attempts, status: result.status };

  if (result.error === null) {
    await outboundEventsRepository.update(ctx.db, event.id, { ...attempt, status: 'delivered', delivered_at: now, next_attempt_at: null });
    ctx.logger.info('webhook event delivered', log);
    return 'delivered';
  }
  const deadline = fromDbDateTime(event.created_at).getTime() + DELIVERY_WINDOW_MS;
  if (started.getTime() >= deadline) {
    await outboundEventsRepository.update(ctx.db, event.id, { ...attempt, status: 'dead', next_attempt_at: null });
    ctx.logger.error('webhook event dead: undelivered for 26 hours', { ...log, error: result.error });
    return 'dead';
  }
  // The last attempt lands exactly at the end of the window.
  const next = Math.min(started.getTime() + delayAfterFailedAttempts(attempts), deadline);
  await outboundEventsRepository.update(ctx.db, event.id, { ...attempt, next_attempt_at: toDbDateTime(new Date(next)) });
  ctx.logger.warn('webhook event delivery failed; will retry', { ...log, error: result.error, nextAttemptAt: toDbDateTime(new Date(next)) });
  return 'retrying';
}

/** The job's body: every due event gets one attempt. */
export async function deliverDueEvents(ctx: AppContext, signal: AbortSignal, batchSize = 100): Promise<JobResult> {
  const due = await outboundEventsRepository.due(ctx.db, toDbDateTime(ctx.clock.now()), batchSize);
  const result: JobResult = { processed: 0, failed: 0 };
  for (const { id } of due) {
    if (signal.aborted) break;
    const outcome = await deliverEvent(ctx, id);
    if (outcome === 'skipped') continue;
    result.processed += 1;
    if (outcome !== 'delivered') result.failed += 1;
  }
  return result;
}

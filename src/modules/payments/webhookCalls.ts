import type { AppContext } from '../../context';
import { syncPaymentFromProvider } from './service';
import { fromDbDateTime, msAfter, toDbDateTime } from '../../time';
import { nextAttemptAfterFailure } from '../../time/backoff';
import { webhookCallsRepository, type GivenUpCall } from './webhookCallsRepository';
import { errorMessage } from '../../errors';

export type { GivenUpCall } from './webhookCallsRepository';

/** What a run of the job did: calls processed, and of those, failed. */
export interface WebhookCallsResult {
  processed: number;
  failed: number;
}

/**
 * The immediate background attempt normally processes a call first; the job picks it up only when
 * that attempt was lost (crash, restart) and this long has passed.
 */
const FIRST_ATTEMPT_GRACE_MS = 60_000;

export type WebhookCallOutcome = 'processed' | 'retrying' | 'given up' | 'skipped';

/**
 * Keeps the call before anything else happens, so a crash after our 200 loses nothing. Calls that
 * arrive together share one commit (providers send bursts: a billing day's debits settle at once).
 * `provider`: the adapter whose address the call came to; the payment is fetched from the account's provider.
 */
export async function recordWebhookCall(ctx: AppContext, provider: string, accountId: string, resourceId: string): Promise<number> {
  const received = ctx.clock.now();
  return webhookCallsRepository.record(ctx.db, {
    account_id: accountId,
    provider,
    resource_id: resourceId,
    received_at: toDbDateTime(received),
    attempts: 0,
    next_attempt_at: toDbDateTime(msAfter(received, FIRST_ATTEMPT_GRACE_MS)),
  });
}

/**
 * Processes one recorded call. The call says only "look at tr_…": the payment is fetched from the
 * provider and applied (forward-only, so duplicates and late reports change nothing). A failure is
 * retried with backoff until 26 hours after the call arrived, as the provider would have retried it.
 */
export async function processWebhookCall(ctx: AppContext, seq: number): Promise<WebhookCallOutcome> {
  const call = await webhookCallsRepository.findOpen(ctx.db, seq);
  if (!call) return 'skipped';
  const attempts = call.attempts + 1;
  try {
    await syncPaymentFromProvider(ctx, call.account_id, call.resource_id);
    await webhookCallsRepository.update(ctx.db, seq, {
      processed_at: toDbDateTime(ctx.clock.now()),
      attempts,
      next_attempt_at: null,
      last_error: null,
    });
    return 'processed';
  } catch (error) {
    const message = errorMessage(error).slice(0, 500);
    const now = ctx.clock.now();
    const next = nextAttemptAfterFailure(fromDbDateTime(call.received_at), now, attempts);
    const log = { accountId: call.account_id, resourceId: call.resource_id, attempts };
    if (next === null) {
      await webhookCallsRepository.update(ctx.db, seq, {
        attempts,
        last_error: message,
        next_attempt_at: null,
        gave_up_at: toDbDateTime(now),
      });
      // Reconciliation takes it over: it fetches the payment on its next run, whatever its status here.
      ctx.logger.error('provider webhook call given up: unprocessed for 26 hours; left to reconciliation', {
        ...log,
        receivedAt: call.received_at,
      });
      return 'given up';
    }
    await webhookCallsRepository.update(ctx.db, seq, { attempts, last_error: message, next_attempt_at: toDbDateTime(next) });
    ctx.logger.warn('provider webhook call failed; it will be retried', { ...log, error: message, nextAttemptAt: toDbDateTime(next) });
    return 'retrying';
  }
}

/** The job's body: calls whose next attempt is due (failed before, or lost to a crash), longest waiting first. */
export async function processDueWebhookCalls(ctx: AppContext, signal: AbortSignal, batchSize = 100): Promise<WebhookCallsResult> {
  const due = await webhookCallsRepository.dueSeqs(ctx.db, toDbDateTime(ctx.clock.now()), batchSize);
  const result: WebhookCallsResult = { processed: 0, failed: 0 };
  for (const { seq } of due) {
    if (signal.aborted) break;
    const outcome = await processWebhookCall(ctx, seq);
    if (outcome === 'skipped') continue;
    result.processed += 1;
    if (outcome !== 'processed') result.failed += 1;
  }
  return result;
}

/**
 * Up to `limit` payments named by given-up calls that reconciliation has not brought in yet, one
 * per payment, longest waiting first. One whose fetch failed waits (next_attempt_at) and then queues
 * behind the others, so calls that keep failing never take every run.
 */
export async function givenUpCallsToReconcile(ctx: AppContext, limit: number): Promise<GivenUpCall[]> {
  return webhookCallsRepository.givenUpToReconcile(ctx.db, toDbDateTime(ctx.clock.now()), limit);
}

/** The payment of these given-up calls was fetched and applied: they are done. */
export const markReconciled = (ctx: AppContext, call: GivenUpCall) =>
  webhookCallsRepository.updateGivenUp(ctx.db, call, { reconciled_at: toDbDateTime(ctx.clock.now()), next_attempt_at: null });

/** The fetch failed: reconciliation asks again at `next`. */
export const reconcileAgainAt = (ctx: AppContext, call: GivenUpCall, next: Date) =>
  webhookCallsRepository.updateGivenUp(ctx.db, call, { next_attempt_at: toDbDateTime(next) });

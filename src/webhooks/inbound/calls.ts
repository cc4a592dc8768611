import type { AppContext } from '../../context';
import type { JobResult } from '../../jobs/types';
import { syncPaymentFromProvider } from '../../modules/payments/service';
import { toDbDateTime } from '../../time';

interface WebhookCallRow {
  seq: number;
  account_id: string;
  provider: string;
  resource_id: string;
  attempts: number;
}

const MAX_ATTEMPTS = 10;
/** A call not processed this long after arrival was lost (crash, restart) and is picked up by the job. */
const STALE_AFTER_MS = 60_000;

/** Keeps the call before anything else happens, so a crash after our 200 loses nothing. */
export async function recordWebhookCall(ctx: AppContext, accountId: string, resourceId: string): Promise<number> {
  const [seq] = await ctx.db('provider_webhook_calls').insert({
    account_id: accountId,
    provider: 'mollie',
    resource_id: resourceId,
    received_at: toDbDateTime(ctx.clock.now()),
    attempts: 0,
  });
  return Number(seq);
}

/**
 * Processes one recorded call. The call says only "look at tr_…": the payment is fetched from the
 * provider and applied (forward-only, so duplicates and late reports change nothing). Answers
 * whether the call is now processed.
 */
export async function processWebhookCall(ctx: AppContext, seq: number): Promise<boolean> {
  const call = await ctx.db<WebhookCallRow>('provider_webhook_calls').where({ seq }).whereNull('processed_at').first();
  if (!call) return true;
  try {
    await syncPaymentFromProvider(ctx, call.account_id, call.resource_id);
    await ctx.db('provider_webhook_calls')
      .where({ seq })
      .update({ processed_at: toDbDateTime(ctx.clock.now()), attempts: call.attempts + 1, last_error: null });
    return true;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    await ctx.db('provider_webhook_calls').where({ seq }).update({ attempts: call.attempts + 1, last_error: message.slice(0, 500) });
    ctx.logger.warn('provider webhook call failed; it will be retried', { accountId: call.account_id, resourceId: call.resource_id, error: message });
    return false;
  }
}

/** The job's body: calls that were not processed (lost to a crash, or failed) are processed again. */
export async function processStaleWebhookCalls(ctx: AppContext, signal: AbortSignal, batchSize = 100): Promise<JobResult> {
  const staleBefore = toDbDateTime(new Date(ctx.clock.now().getTime() - STALE_AFTER_MS));
  const calls = await ctx.db<WebhookCallRow>('provider_webhook_calls')
    .whereNull('processed_at')
    .andWhere('received_at', '<', staleBefore)
    .andWhere('attempts', '<', MAX_ATTEMPTS)
    .orderBy('received_at')
    .limit(batchSize)
    .select('seq');
  const result: JobResult = { processed: 0, failed: 0 };
  for (const { seq } of calls) {
    if (signal.aborted) break;
    result.processed += 1;
    if (!(await processWebhookCall(ctx, seq))) result.failed += 1;
  }
  return result;
}

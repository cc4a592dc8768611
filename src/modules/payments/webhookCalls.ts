import type { Knex } from 'knex';
import type { AppContext } from '../../context';
import type { JobResult } from '../../jobs/types';
import { syncPaymentFromProvider } from './service';
import { fromDbDateTime, toDbDateTime } from '../../time';
import { nextAttemptAfterFailure } from '../../time/backoff';
import { GroupCommit } from '../../db/groupCommit';

interface WebhookCallRow {
  seq: number;
  account_id: string;
  provider: string;
  resource_id: string;
  received_at: string;
  processed_at: string | null;
  attempts: number;
  last_error: string | null;
  /** When the job tries it next; after it was given up, when reconciliation asks again (null: at once). */
  next_attempt_at: string | null;
  gave_up_at: string | null;
  /** When reconciliation brought in the payment of a given-up call (see reconciliation.ts). */
  reconciled_at: string | null;
  /** Set by the group commit that kept it (see groupCommit.ts); null on rows kept before receipts. */
  receipt: string | null;
}

/**
 * The immediate background attempt normally processes a call first; the job picks it up only when
 * that attempt was lost (crash, restart) and this long has passed.
 */
const FIRST_ATTEMPT_GRACE_MS = 60_000;

export type WebhookCallOutcome = 'processed' | 'retrying' | 'given up' | 'skipped';

const calls = (ctx: AppContext) => ctx.db<WebhookCallRow>('provider_webhook_calls');

/** One group commit per database: a burst of calls is kept with one insert. */
const recorders = new WeakMap<Knex, GroupCommit<Omit<WebhookCallRow, 'seq' | 'processed_at' | 'last_error' | 'gave_up_at' | 'reconciled_at' | 'receipt'>>>();

/**
 * Keeps the call before anything else happens, so a crash after our 200 loses nothing. Calls that
 * arrive together share one commit (providers send bursts: a billing day's debits settle at once).
 * `provider`: the adapter whose address the call came to; the payment is fetched from the account's provider.
 */
export async function recordWebhookCall(ctx: AppContext, provider: string, accountId: string, resourceId: string): Promise<number> {
  let recorder = recorders.get(ctx.db);
  if (!recorder) {
    recorder = new GroupCommit(ctx.db, 'provider_webhook_calls');
    recorders.set(ctx.db, recorder);
  }
  const received = ctx.clock.now();
  return recorder.insert({
    account_id: accountId,
    provider,
    resource_id: resourceId,
    received_at: toDbDateTime(received),
    attempts: 0,
    next_attempt_at: toDbDateTime(new Date(received.getTime() + FIRST_ATTEMPT_GRACE_MS)),
  });
}

/**
 * Processes one recorded call. The call says only "look at tr_…": the payment is fetched from the
 * provider and applied (forward-only, so duplicates and late reports change nothing). A failure is
 * retried with backoff until 26 hours after the call arrived, as the provider would have retried it.
 */
export async function processWebhookCall(ctx: AppContext, seq: number): Promise<WebhookCallOutcome> {
  const call = await calls(ctx).where({ seq }).whereNull('processed_at').whereNull('gave_up_at').first();
  if (!call) return 'skipped';
  const attempts = call.attempts + 1;
  try {
    await syncPaymentFromProvider(ctx, call.account_id, call.resource_id);
    await calls(ctx).where({ seq }).update({ processed_at: toDbDateTime(ctx.clock.now()), attempts, next_attempt_at: null, last_error: null });
    return 'processed';
  } catch (error) {
    const message = (error instanceof Error ? error.message : String(error)).slice(0, 500);
    const now = ctx.clock.now();
    const next = nextAttemptAfterFailure(fromDbDateTime(call.received_at), now, attempts);
    const log = { accountId: call.account_id, resourceId: call.resource_id, attempts };
    if (next === null) {
      await calls(ctx).where({ seq }).update({ attempts, last_error: message, next_attempt_at: null, gave_up_at: toDbDateTime(now) });
      // Reconciliation takes it over: it fetches the payment on its next run, whatever its status here.
      ctx.logger.error('provider webhook call given up: unprocessed for 26 hours; left to reconciliation', { ...log, receivedAt: call.received_at });
      return 'given up';
    }
    await calls(ctx).where({ seq }).update({ attempts, last_error: message, next_attempt_at: toDbDateTime(next) });
    ctx.logger.warn('provider webhook call failed; it will be retried', { ...log, error: message, nextAttemptAt: toDbDateTime(next) });
    return 'retrying';
  }
}

/** The job's body: calls whose next attempt is due (failed before, or lost to a crash), longest waiting first. */
export async function processDueWebhookCalls(ctx: AppContext, signal: AbortSignal, batchSize = 100): Promise<JobResult> {
  const due = await calls(ctx)
    .whereNull('processed_at')
    .whereNull('gave_up_at')
    .andWhere('next_attempt_at', '<=', toDbDateTime(ctx.clock.now()))
    .orderBy([{ column: 'next_attempt_at' }, { column: 'seq' }])
    .limit(batchSize)
    .select('seq');
  const result: JobResult = { processed: 0, failed: 0 };
  for (const { seq } of due) {
    if (signal.aborted) break;
    const outcome = await processWebhookCall(ctx, seq);
    if (outcome === 'skipped') continue;
    result.processed += 1;
    if (outcome !== 'processed') result.failed += 1;
  }
  return result;
}

/** The payment a given-up call named: reconciliation fetches it once for all such calls. */
export interface GivenUpCall {
  account_id: string;
  resource_id: string;
}

/** When reconciliation asks about a given-up call: at once, or after its last failed try. */
const RECONCILE_DUE_AT = 'coalesce(next_attempt_at, gave_up_at)';

const givenUpUnreconciled = (ctx: AppContext, call?: GivenUpCall) => {
  const query = calls(ctx).whereNull('processed_at').whereNotNull('gave_up_at').whereNull('reconciled_at');
  return call ? query.where({ account_id: call.account_id, resource_id: call.resource_id }) : query;
};

/**
 * Up to `limit` payments named by given-up calls that reconciliation has not brought in yet, one
 * per payment, longest waiting first. One whose fetch failed waits (next_attempt_at) and then queues
 * behind the others, so calls that keep failing never take every run.
 */
export async function givenUpCallsToReconcile(ctx: AppContext, limit: number): Promise<GivenUpCall[]> {
  return givenUpUnreconciled(ctx)
    .whereRaw(`${RECONCILE_DUE_AT} <= ?`, [toDbDateTime(ctx.clock.now())])
    .groupBy('account_id', 'resource_id')
    .select('account_id', 'resource_id', ctx.db.raw(`min(${RECONCILE_DUE_AT}) as due_at`))
    .orderBy([{ column: 'due_at' }, { column: 'account_id' }, { column: 'resource_id' }])
    .limit(limit);
}

/** The payment of these given-up calls was fetched and applied: they are done. */
export const markReconciled = (ctx: AppContext, call: GivenUpCall) =>
  givenUpUnreconciled(ctx, call).update({ reconciled_at: toDbDateTime(ctx.clock.now()), next_attempt_at: null });

/** The fetch failed: reconciliation asks again at `next`. */
export const reconcileAgainAt = (ctx: AppContext, call: GivenUpCall, next: Date) =>
  givenUpUnreconciled(ctx, call).update({ next_attempt_at: toDbDateTime(next) });

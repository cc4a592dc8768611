import type { Knex } from 'knex';
import type { AppContext } from '../../context';
import { ShopApiError } from '../../integrations/errors';
import { fromDbDateTime, msAfter, toDbDateTime } from '../../time';
import { nextAttemptAfterFailure } from '../../time/backoff';
import { shopTasksRepository, type ShopTaskRow } from './tasksRepository';
import { HopelessTask, performShopTask } from './writeBack';
import { errorMessage } from '../../errors';

/** How long a taken task is left alone: longer than any one attempt with its retries takes. */
const HOLD_MS = 10 * 60 * 1000;
const BATCH = 50;

/**
 * Why a task failed, for the log: a store's own words (a refusal's message) can quote the buyer, so
 * of a store's answer only its kind and status are logged; the whole message is kept on the task.
 */
function loggedReason(error: unknown): string {
  if (error instanceof ShopApiError) return error.status === null ? error.kind : `${error.kind} (HTTP ${error.status})`;
  return errorMessage(error);
}

/**
 * A failed attempt, whatever threw (the store, or our side before calling it: a store secret that
 * cannot be decrypted). Retried with the backoff of the other outboxes until 26 hours after the task
 * was queued, then `dead`; at once when it cannot succeed (no such order here, or in the store).
 */
async function recordFailure(ctx: AppContext, task: ShopTaskRow, attempts: number, error: unknown): Promise<'retry' | 'dead'> {
  const reason = errorMessage(error);
  const hopeless = error instanceof HopelessTask || (error instanceof ShopApiError && error.status === 404);
  const next = hopeless ? null : nextAttemptAfterFailure(fromDbDateTime(task.created_at), ctx.clock.now(), attempts);
  const log = {
    accountId: task.account_id,
    orderId: task.order_id,
    taskId: task.id,
    task: task.kind,
    attempts,
    reason: loggedReason(error),
  };
  if (next === null) {
    await shopTasksRepository.dead(ctx.db, task, reason);
    ctx.logger.error('store update given up: the task is dead', log);
    return 'dead';
  }
  await shopTasksRepository.retryLater(ctx.db, task, toDbDateTime(next), reason);
  ctx.logger.warn('store update failed; retried later', { ...log, nextAttemptAt: toDbDateTime(next) });
  return 'retry';
}

/** One attempt of one task, if nobody else took it; the outcome is recorded on the task. */
export async function attemptShopTask(ctx: AppContext, task: ShopTaskRow): Promise<'done' | 'retry' | 'dead' | 'taken'> {
  const now = ctx.clock.now();
  if (!(await shopTasksRepository.take(ctx.db, task, toDbDateTime(msAfter(now, HOLD_MS))))) return 'taken';
  try {
    await performShopTask(ctx, task);
    await shopTasksRepository.done(ctx.db, task, toDbDateTime(ctx.clock.now()));
  } catch (error) {
    return recordFailure(ctx, task, task.attempts + 1, error);
  }
  ctx.logger.info('store updated', { accountId: task.account_id, orderId: task.order_id, task: task.kind });
  return 'done';
}

/**
 * Every task whose time has come (the job, every minute). A task whose attempt throws even so (its
 * row cannot be taken or written) is counted failed, left for a later run, and the others go on.
 */
export async function runDueShopTasks(ctx: AppContext, signal?: AbortSignal): Promise<{ processed: number; failed: number }> {
  const result = { processed: 0, failed: 0 };
  const thrown = new Set<string>();
  for (;;) {
    const due = await shopTasksRepository.due(ctx.db, toDbDateTime(ctx.clock.now()), BATCH);
    let progressed = false;
    for (const task of due.filter(({ id }) => !thrown.has(id))) {
      if (signal?.aborted) return result;
      let outcome: Awaited<ReturnType<typeof attemptShopTask>>;
      try {
        outcome = await attemptShopTask(ctx, task);
      } catch (error) {
        thrown.add(task.id);
        ctx.logger.error('store update attempt failed; tried again on a later run', {
          accountId: task.account_id,
          taskId: task.id,
          task: task.kind,
          reason: loggedReason(error),
        });
        outcome = 'retry';
      }
      if (outcome === 'taken') continue;
      progressed = true;
      if (outcome === 'done') result.processed += 1;
      else result.failed += 1;
    }
    if (!progressed || due.length < BATCH) return result;
  }
}

/**
 * Queued inside a settlement's transaction: tried right after it commits (nothing if it rolls back),
 * and by the job after that until the store has it.
 */
export function attemptAfterCommit(ctx: AppContext, trx: Knex.Transaction, accountId: string, taskId: string): void {
  trx.executionPromise.then(
    () =>
      ctx.background.run('store write-back', async () => {
        const task = await shopTasksRepository.find(ctx.db, accountId, taskId);
        if (task && task.status === 'pending') await attemptShopTask(ctx, task);
      }),
    () => undefined,
  );
}

import type { AppContext } from '../../context';
import type { Account } from '../accounts/account';
import { isUniqueViolation } from '../../db/connect';
import { ConflictError, NotFoundError, errorMessage } from '../../errors';
import type { Page, PageRequest } from '../../paging';
import { newId } from '../../ids';
import { fromDbDateTime, toDbDateTime } from '../../time';
import { shopsRepository, type ShopRow } from './repository';
import { requireConnectedStore, storeClient } from './storeClient';
import { syncStore } from './storeSync';
import { syncRunsRepository, type SyncKind, type SyncRunRow } from './syncRunsRepository';
import { checkShopWebhooks } from './webhookHealth';

/** A run whose heartbeat is older than this died with its instance: a new start takes over. */
export const ABANDONED_AFTER_MS = 5 * 60 * 1000;

const runningKeyOf = (accountId: string, kind: SyncKind) => `${accountId}:${kind}`;

/** Claims the one running slot of this kind for this store, taking over a run whose instance died. */
async function claimRun(ctx: AppContext, accountId: string, kind: SyncKind, full: boolean): Promise<SyncRunRow> {
  for (let attempt = 0; attempt < 2; attempt += 1) {
    const now = toDbDateTime(ctx.clock.now());
    const row: SyncRunRow = {
      id: newId('syn'),
      account_id: accountId,
      kind,
      full,
      status: 'running',
      running_key: runningKeyOf(accountId, kind),
      pages_total: null,
      pages_done: 0,
      created: 0,
      updated: 0,
      unchanged: 0,
      failed: 0,
      errors: '[]',
      heartbeat_at: now,
      started_at: now,
      finished_at: null,
    };
    try {
      await syncRunsRepository.insert(ctx.db, row);
      return row;
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      const running = await syncRunsRepository.running(ctx.db, runningKeyOf(accountId, kind));
      if (!running) continue; // it finished a moment ago
      if (ctx.clock.now().getTime() - fromDbDateTime(running.heartbeat_at).getTime() < ABANDONED_AFTER_MS) {
        throw new ConflictError(`A ${kind} sync of this store is running already: ${running.id}`, 'sync_running');
      }
      await syncRunsRepository.finish(ctx.db, running.id, 'failed', now, {
        record: 'run',
        error: 'abandoned: its instance stopped (no heartbeat for 5 minutes)',
      });
    }
  }
  throw new ConflictError(`A ${kind} sync of this store is running already`, 'sync_running');
}

/** Runs one sync to its end; never throws: the run row says how it went. */
export async function performSync(ctx: AppContext, run: SyncRunRow, shop: ShopRow): Promise<void> {
  try {
    await syncStore(ctx, run, shop, storeClient(ctx, shop));
    await syncRunsRepository.finish(ctx.db, run.id, 'succeeded', toDbDateTime(ctx.clock.now()));
    ctx.metrics.syncRuns.inc({ kind: run.kind, status: 'succeeded' });
    ctx.logger.info('store sync finished', { accountId: run.account_id, syncRunId: run.id, kind: run.kind });
  } catch (error) {
    const message = errorMessage(error);
    await syncRunsRepository.finish(ctx.db, run.id, 'failed', toDbDateTime(ctx.clock.now()), {
      record: 'run',
      error: message.slice(0, 500),
    });
    ctx.metrics.syncRuns.inc({ kind: run.kind, status: 'failed' });
    ctx.logger.warn('store sync failed', { accountId: run.account_id, syncRunId: run.id, kind: run.kind, error: message });
  }
}

/**
 * `POST /api/v2/sync/{products|orders}`: starts a sync in the background and answers its run (202).
 * Two syncs of one kind for one store never run at once, also across instances (409 naming the
 * running one).
 */
export async function startSync(ctx: AppContext, account: Account, kind: SyncKind, full: boolean): Promise<SyncRunRow> {
  const shop = await requireConnectedStore(ctx, account.id, 'Could not start the sync');
  const run = await claimRun(ctx, account.id, kind, full);
  ctx.background.run(`store ${kind} sync`, () => performSync(ctx, run, shop));
  return run;
}

export async function getSyncRun(ctx: AppContext, account: Account, id: string): Promise<SyncRunRow> {
  const run = await syncRunsRepository.find(ctx.db, account.id, id);
  if (!run) throw new NotFoundError('Sync run');
  return run;
}

export function listSyncRuns(ctx: AppContext, account: Account, request: PageRequest): Promise<Page<SyncRunRow>> {
  return syncRunsRepository.page(ctx.db, account.id, request);
}

/**
 * Our webhooks in the store, checked and repaired before the store's sync: what a disabled or
 * missing webhook did not deliver, the incremental sync right after catches up. A store that does
 * not answer is synced (or fails) as before.
 */
async function repairWebhooksOf(ctx: AppContext, shop: ShopRow): Promise<void> {
  try {
    await checkShopWebhooks(ctx, shop, { repair: true });
  } catch (error) {
    ctx.logger.warn('store webhooks could not be checked', {
      accountId: shop.account_id,
      error: errorMessage(error).slice(0, 300),
    });
  }
}

/**
 * The periodic incremental sync of every connected store (the job, every 15 minutes): the source of
 * truth when a webhook was missed or disabled. Disabled or missing webhooks are made to deliver
 * again first. A store whose sync is running already is skipped.
 */
export async function syncAllStores(ctx: AppContext, signal?: AbortSignal): Promise<{ synced: number; skipped: number; failed: number }> {
  const result = { synced: 0, skipped: 0, failed: 0 };
  const shops = await shopsRepository.connected(ctx.db);
  // Products first: order lines refer to them.
  for (const shop of shops) {
    if (signal?.aborted) return result;
    await repairWebhooksOf(ctx, shop);
    for (const kind of ['products', 'orders'] as const) {
      if (signal?.aborted) return result;
      let run: SyncRunRow;
      try {
        run = await claimRun(ctx, shop.account_id, kind, false);
      } catch (error) {
        if (error instanceof ConflictError) {
          result.skipped += 1;
          continue;
        }
        throw error;
      }
      await performSync(ctx, run, shop);
      const finished = await syncRunsRepository.find(ctx.db, shop.account_id, run.id);
      if (finished?.status === 'succeeded') result.synced += 1;
      else result.failed += 1;
    }
  }
  return result;
}

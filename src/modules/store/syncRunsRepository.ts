import type { Knex } from 'knex';
import { tenantTable } from '../../db/tenantTable';

export type SyncKind = 'products' | 'orders';
export type SyncStatus = 'running' | 'succeeded' | 'failed';

export interface SyncRunRow {
  id: string;
  account_id: string;
  kind: SyncKind;
  full: boolean | number; // MySQL reads booleans back as 1/0
  status: SyncStatus;
  running_key: string | null;
  pages_total: number | null;
  pages_done: number;
  created: number;
  updated: number;
  unchanged: number;
  failed: number;
  errors: string; // JSON SyncError[]
  heartbeat_at: string;
  started_at: string;
  finished_at: string | null;
}

export interface SyncError {
  record: string;
  error: string;
}

/** How many record errors a run keeps (the count goes on). */
export const KEPT_ERRORS = 100;

const shared = tenantTable<SyncRunRow>('sync_runs');

export const syncRunsRepository = {
  ...shared,

  insert: (db: Knex, row: SyncRunRow) => shared.table(db).insert(row),

  running: (db: Knex, runningKey: string) => shared.table(db).where({ running_key: runningKey }).first(),

  /**
   * Adds a page's counts and errors; the heartbeat shows the run is alive. Pages finish in parallel:
   * counts are added in the statement, and the error list is read under a row lock (MySQL; SQLite
   * has one writer at a time), so no page's numbers are lost.
   */
  recordPage: async (
    db: Knex,
    id: string,
    page: { created: number; updated: number; unchanged: number; failed: number; errors: SyncError[]; pagesTotal: number; now: string },
  ): Promise<void> => {
    await db.transaction(async (trx) => {
      const changes: Record<string, unknown> = {
        pages_total: page.pagesTotal,
        pages_done: trx.raw('pages_done + 1'),
        created: trx.raw('created + ?', [page.created]),
        updated: trx.raw('updated + ?', [page.updated]),
        unchanged: trx.raw('unchanged + ?', [page.unchanged]),
        failed: trx.raw('failed + ?', [page.failed]),
        heartbeat_at: page.now,
      };
      if (page.errors.length) {
        const run = await shared.table(trx).where({ id }).forUpdate().first('errors');
        if (run) changes.errors = JSON.stringify([...(JSON.parse(run.errors) as SyncError[]), ...page.errors].slice(0, KEPT_ERRORS));
      }
      await shared.table(trx).where({ id }).update(changes);
    });
  },

  finish: (db: Knex, id: string, status: 'succeeded' | 'failed', now: string, error?: SyncError) =>
    db.transaction(async (trx) => {
      const run = await shared.table(trx).where({ id }).first();
      if (!run) return;
      const errors = error ? [...(JSON.parse(run.errors) as SyncError[]), error].slice(0, KEPT_ERRORS + 1) : JSON.parse(run.errors);
      await shared
        .table(trx)
        .where({ id })
        .update({ status, running_key: null, finished_at: now, heartbeat_at: now, errors: JSON.stringify(errors) });
    }),
};

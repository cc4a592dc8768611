import type { Knex } from 'knex';
import type { Config } from '../../config';
import { formatDateTime, formatNullableDateTime } from '../../time';
import type { SyncError, SyncRunRow } from './syncRunsRepository';
import type { SyncRunResponse } from './syncSchemas';

export function presentSyncRun(config: Config, row: SyncRunRow): SyncRunResponse {
  return {
    id: row.id,
    kind: row.kind,
    full: Boolean(row.full),
    status: row.status,
    progress: {
      pages_done: Number(row.pages_done),
      pages_total: row.pages_total === null ? null : Number(row.pages_total),
      created: Number(row.created),
      updated: Number(row.updated),
      unchanged: Number(row.unchanged),
      failed: Number(row.failed),
    },
    errors: JSON.parse(row.errors) as SyncError[],
    started_at: formatDateTime(row.started_at, config.APP_TIMEZONE),
    finished_at: formatNullableDateTime(row.finished_at, config.APP_TIMEZONE),
  };
}

export function presentSyncRuns(_db: Knex, config: Config, _accountId: string, rows: SyncRunRow[]): SyncRunResponse[] {
  return rows.map((row) => presentSyncRun(config, row));
}

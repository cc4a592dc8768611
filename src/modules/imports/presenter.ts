import type { Config } from '../../config';
import { pagedEnvelope } from '../../validation/pagination';
import { formatDateTime, formatNullableDateTime } from '../../time';
import type { ImportRowOutcome } from './repository';
import type { ImportReport } from './service';
import type { ImportResponse, ImportRowResponse } from './schemas';

function presentRow(row: ImportRowOutcome): ImportRowResponse {
  return {
    source_id: row.source_id,
    line: row.line === null ? null : Number(row.line),
    outcome: row.outcome,
    field: row.field,
    reason: row.reason,
    customer_id: row.customer_id,
    subscription_id: row.subscription_id,
  };
}

export function presentImport({ run, rows, request }: ImportReport, config: Pick<Config, 'APP_TIMEZONE' | 'publicUrl'>): ImportResponse {
  return {
    id: run.id,
    source: run.source,
    dry_run: Boolean(run.dry_run),
    status: run.status,
    counts: { total: Number(run.total), created: Number(run.created), skipped: Number(run.skipped), failed: Number(run.failed) },
    error: run.error,
    started_at: formatDateTime(run.started_at, config.APP_TIMEZONE),
    finished_at: formatNullableDateTime(run.finished_at, config.APP_TIMEZONE),
    rows: pagedEnvelope({ items: rows.items.map(presentRow), total: rows.total }, request, `${config.publicUrl}/api/v2/imports/${run.id}`),
  };
}

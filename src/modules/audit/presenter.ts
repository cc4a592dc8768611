import type { Config } from '../../config';
import { formatNullableDate, formatDateTime, formatNullableDateTime } from '../../time';
import type { AuditReportRow } from './repository';
import type { AuditReport } from './service';
import type { AuditResponse } from './schemas';

export function presentAudit(row: AuditReportRow, config: Pick<Config, 'APP_TIMEZONE'>): AuditResponse {
  const report = row.report ? (JSON.parse(row.report) as AuditReport) : null;
  return {
    id: row.id,
    status: row.status,
    requested_via: row.requested_via,
    since: formatNullableDate(row.since),
    violations: row.violations,
    todos: row.todos,
    started_at: formatDateTime(row.started_at, config.APP_TIMEZONE),
    finished_at: formatNullableDateTime(row.finished_at, config.APP_TIMEZONE),
    error: row.error,
    report: report ? { violations: report.violations, todos: report.todos, notes: report.notes } : null,
  };
}

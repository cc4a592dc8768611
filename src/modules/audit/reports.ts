import type { AppContext } from '../../context';
import { newId } from '../../ids';
import { enqueueAccountEvent } from '../../outbox/events';
import { toDbDateTime } from '../../time';
import { auditRepository, type AuditReportRow } from './repository';
import { auditAccount, type AuditReport } from './service';

/** A run not finished after this long was lost with its process: another may start. */
const RUN_LOST_AFTER_MS = 60 * 60 * 1000;

/**
 * Runs the audit for one account and stores its report (`audit_reports`): the row first (`running`), then the run,
 * then the outcome. Violations tell the merchant (`audit.failed`, to the account's events endpoint).
 */
export async function runStoredAudit(
  ctx: AppContext,
  account: { id: string; name: string },
  options: { since: Date | null; via: AuditReportRow['requested_via'] },
): Promise<{ row: AuditReportRow; report: AuditReport | null }> {
  const row = await startRun(ctx, account, options);
  return { row, report: await finishRun(ctx, account, row, options.since) };
}

/**
 * `POST /api/v2/audit`: a run started in the background, answered at once; a run of the account still going is
 * answered instead of starting a second (the provider's history is read once at a time).
 */
export async function requestAudit(ctx: AppContext, account: { id: string; name: string }, since: Date | null): Promise<AuditReportRow> {
  const after = toDbDateTime(new Date(ctx.clock.now().getTime() - RUN_LOST_AFTER_MS));
  const running = await auditRepository.reports.running(ctx.db, account.id, after);
  if (running) return running;
  const row = await startRun(ctx, account, { since, via: 'api' });
  ctx.background.run('audit', () => finishRun(ctx, account, row, since));
  return row;
}

/** The account's latest finished report, or null when it was never audited. */
export function latestAudit(ctx: AppContext, accountId: string): Promise<AuditReportRow | undefined> {
  return auditRepository.reports.latestFinished(ctx.db, accountId);
}

export function auditRun(ctx: AppContext, accountId: string, id: string): Promise<AuditReportRow | undefined> {
  return auditRepository.reports.find(ctx.db, accountId, id);
}

async function startRun(
  ctx: AppContext,
  account: { id: string },
  options: { since: Date | null; via: AuditReportRow['requested_via'] },
): Promise<AuditReportRow> {
  const row: AuditReportRow = {
    id: newId('aud'),
    account_id: account.id,
    status: 'running',
    requested_via: options.via,
    since: options.since ? toDbDateTime(options.since).slice(0, 10) : null,
    violations: null,
    todos: null,
    report: null,
    error: null,
    started_at: toDbDateTime(ctx.clock.now()),
    finished_at: null,
  };
  await auditRepository.reports.insert(ctx.db, row);
  return row;
}

async function finishRun(
  ctx: AppContext,
  account: { id: string; name: string },
  row: AuditReportRow,
  since: Date | null,
): Promise<AuditReport | null> {
  let report: AuditReport;
  try {
    report = await auditAccount(ctx, account, since);
  } catch (error) {
    const message = (error instanceof Error ? error.message : String(error)).split('\n')[0]?.slice(0, 500) ?? '';
    await auditRepository.reports.finish(ctx.db, account.id, row.id, {
      status: 'failed',
      error: message,
      finished_at: toDbDateTime(ctx.clock.now()),
    });
    ctx.logger.warn('audit failed to run', { accountId: account.id, auditId: row.id, error: message });
    return null;
  }
  const now = toDbDateTime(ctx.clock.now());
  await ctx.db.transaction(async (trx) => {
    await auditRepository.reports.finish(trx, account.id, row.id, {
      status: 'done',
      violations: report.violations.length,
      todos: report.todos.length,
      report: JSON.stringify(report),
      finished_at: now,
    });
    if (report.violations.length)
      await enqueueAccountEvent(
        trx,
        account.id,
        {
          name: 'audit.failed',
          resourceId: row.id,
          body: { violations: report.violations.length, invariants: [...new Set(report.violations.map((v) => v.invariant))] },
        },
        now,
      );
  });
  ctx.logger.info('audit done', {
    accountId: account.id,
    auditId: row.id,
    violations: report.violations.length,
    todos: report.todos.length,
  });
  return report;
}

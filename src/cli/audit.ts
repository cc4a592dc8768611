import type { Command } from 'commander';
import type { AppContext } from '../context';
import { accountsRepository } from '../modules/accounts/repository';
import { requireAccount } from '../modules/accounts/service';
import { runStoredAudit, type AuditFinding, type AuditReport } from '../modules/audit/service';
import { instantFromZonedDateTime } from '../time';
import { CliUsageError, type CliIo } from './io';

/** The audit found broken invariants (or could not run): exit code 1, the findings printed before. */
export class AuditFailedError extends Error {}

interface AuditOptions {
  account?: string;
  since?: string;
  json?: boolean;
}

const line = (finding: AuditFinding) => `${finding.invariant}: ${finding.message} [${finding.rows.join(' ')}]`;

function printReport(io: CliIo, report: AuditReport): void {
  io.out(`account ${report.account}: ${report.violations.length} violations, ${report.todos.length} to do`);
  for (const finding of report.violations) io.out(`  VIOLATION ${line(finding)}`);
  for (const finding of report.todos) io.out(`  to do ${line(finding)}`);
  for (const finding of report.notes) io.out(`  note ${line(finding)}`);
}

/** `cli audit`: the ledger audit of one account or all, printed; exit 1 when any invariant is broken. */
export function registerAuditCommand(program: Command, ctx: AppContext, io: CliIo): void {
  program
    .command('audit')
    .description('check the books against themselves and the provider; exit 1 when an invariant is broken')
    .option('--account <name>', 'audit this account only (all accounts when left out)')
    .option('--since <date>', 'only what was made from this day (YYYY-MM-DD in APP_TIMEZONE) on')
    .option('--json', 'print the reports as JSON (one array)')
    .action(async (options: AuditOptions) => {
      let since: Date | null = null;
      if (options.since !== undefined) {
        since = /^\d{4}-\d{2}-\d{2}$/.test(options.since)
          ? instantFromZonedDateTime(`${options.since} 00:00:00`, ctx.config.APP_TIMEZONE)
          : null;
        if (!since) throw new CliUsageError('--since is a date, YYYY-MM-DD');
      }
      const accounts = options.account ? [await requireAccount(ctx.db, options.account)] : await accountsRepository.list(ctx.db);
      const reports: AuditReport[] = [];
      let failedRuns = 0;
      for (const account of accounts) {
        const { row, report } = await runStoredAudit(ctx, account, { since, via: 'cli' });
        if (report) reports.push(report);
        else {
          failedRuns += 1;
          io.err(`account ${account.name}: the audit could not run (report ${row.id}; LOG_LEVEL=debug shows why)`);
        }
      }
      if (options.json) io.out(JSON.stringify(reports));
      else for (const report of reports) printReport(io, report);
      const violations = reports.reduce((total, report) => total + report.violations.length, 0);
      if (violations || failedRuns)
        throw new AuditFailedError(
          `audit: ${violations} violations in ${reports.filter((report) => report.violations.length).length} ` +
            `of ${accounts.length} accounts` +
            (failedRuns ? `, ${failedRuns} could not be audited` : ''),
        );
    });
}

import { execFile } from 'node:child_process';
import path from 'node:path';
import type { AppContext } from '../../src/context';
import { cli } from '../cli/runInMemory';

interface PrintedReport {
  account: string;
  violations: Array<{ invariant: string; message: string; rows: string[] }>;
}

/**
 * The ledger audit (`cli audit`) of every account of the context's database, or of one, must find nothing broken:
 * every fault test, the money-path property test and the real-store scenarios end with it, so that a double charge,
 * a payment nobody tracks or a missing invoice fails the test that made it.
 */
export async function expectCleanAudit(ctx: AppContext, account?: string): Promise<void> {
  await ctx.background.idle();
  const run = await cli(ctx, 'audit', '--json', ...(account ? ['--account', account] : []));
  if (run.code === 0) return;
  let reports: PrintedReport[] = [];
  try {
    reports = JSON.parse(run.out[run.out.length - 1] ?? '[]') as PrintedReport[];
  } catch {
    // Not JSON: the audit could not run; its error lines say why.
  }
  const found = reports.flatMap((report) =>
    report.violations.map((violation) => `${report.account}: ${violation.invariant}: ${violation.message} [${violation.rows.join(' ')}]`),
  );
  const failed = (await ctx.db('audit_reports').where({ status: 'failed' }).select('id', 'error')) as Array<{ id: string; error: string }>;
  const why = failed.map((row) => `${row.id} could not run: ${row.error}`);
  throw new Error(`the ledger audit found broken invariants:\n${[...found, ...run.err, ...why].join('\n')}`);
}

/**
 * As `expectCleanAudit`, through the built `cli audit` in a process of its own with `env` (the environment of the
 * service processes under test: a fake provider whose certificate only they are told to accept).
 */
export async function expectCleanAuditByProcess(env: Record<string, string>): Promise<void> {
  const run = await new Promise<{ code: number; out: string; err: string }>((resolve) => {
    execFile(
      process.execPath,
      [path.join(__dirname, '..', '..', 'dist', 'src', 'cli.js'), 'audit'],
      { env: { PATH: process.env.PATH ?? '', ...env }, timeout: 120_000 },
      (error, stdout, stderr) => resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, out: stdout, err: stderr }),
    );
  });
  if (run.code !== 0) throw new Error(`the ledger audit found broken invariants:\n${run.out}${run.err}`);
}

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
  throw new Error(`the ledger audit found broken invariants:\n${[...found, ...run.err].join('\n')}`);
}

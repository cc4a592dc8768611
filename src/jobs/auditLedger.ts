import { accountsRepository } from '../modules/accounts/repository';
import { runStoredAudit } from '../modules/audit/service';
import type { Job } from './types';
import { msBefore } from '../time';

/** What the daily run reads: the last five weeks (a monthly period and its retries); `cli audit` reads all of it. */
const DAILY_WINDOW_MS = 35 * 24 * 60 * 60 * 1000;

/**
 * The ledger audit of every account, daily: each report stored (`GET /api/v2/audit`), violations sent to the
 * merchant as `audit.failed` and counted in `/metrics`. An account whose audit cannot run (its provider down) is a
 * failed item; the others go on.
 */
export const auditLedgerJob: Job = {
  name: 'audit-ledger',
  schedule: '23 4 * * *', // daily, after the night's billing run has settled its first answers
  leaseSeconds: 3600,
  description: "Audits every account's books against themselves and the provider, storing each report",
  async run(ctx, signal) {
    let processed = 0;
    let failed = 0;
    const since = msBefore(ctx.clock.now(), DAILY_WINDOW_MS);
    for (const account of await accountsRepository.list(ctx.db)) {
      if (signal.aborted) break;
      const { report } = await runStoredAudit(ctx, account, { since, via: 'job' });
      if (report) processed += 1;
      else failed += 1;
    }
    return { processed, failed };
  },
};

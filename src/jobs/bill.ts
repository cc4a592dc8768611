import type { AppContext } from '../context';
import { chargesRepository } from '../modules/subscriptions/chargesRepository';
import { runBilling } from '../modules/billing/run';
import { RUN_SILENT_MS } from '../modules/billing/runs';
import { billingRunsRepository } from '../modules/billing/runsRepository';
import { calendarDateIn, msBefore, todayIn, toDbDateTime } from '../time';
import { lastFiring } from './cronFirings';
import type { CatchingUpJob } from './scheduler';

/**
 * Whether a billing run is wanted now: the run BILLING_CRON last asked for is missing (no run as of
 * that day or later started after it and finished, or is still going, seen alive lately: downtime, a
 * time the daylight-saving change skipped, a crash), or charges due today or earlier wait that no run
 * has taken (a charge made due again by a resume that day, one kept after a lost answer whose wait
 * is over): the next run of the day, within the hour, makes them.
 */
export async function billingRunMissed(ctx: AppContext): Promise<boolean> {
  const now = ctx.clock.now();
  if (await chargesRepository.anyWaiting(ctx.db, { date: todayIn(ctx), now: toDbDateTime(now) })) return true;
  const fired = lastFiring(ctx.config.BILLING_CRON, ctx.config.APP_TIMEZONE, now);
  if (!fired) return false;
  const covered = await billingRunsRepository.coveredSince(ctx.db, {
    since: toDbDateTime(fired),
    date: calendarDateIn(fired, ctx.config.APP_TIMEZONE),
    aliveSince: toDbDateTime(msBefore(now, RUN_SILENT_MS)),
  });
  return !covered;
}

/**
 * The daily billing run. It takes no lease: every instance runs it at once and they share the due
 * charges by claiming them in small batches; the unique charge row makes each charge happen once.
 * A run that did not happen is made up at the scheduler's start or its hourly check, as of today.
 */
export const billJob: CatchingUpJob = {
  name: 'bill',
  schedule: '0 6 * * *',
  timing: (config) => ({ schedule: config.BILLING_CRON, timezone: config.APP_TIMEZONE }),
  sharedAcrossInstances: true,
  leaseSeconds: 3600,
  description:
    'Charges every subscription with a charge due today or earlier, once per period (BILLING_CRON, in APP_TIMEZONE; a missed run is ' +
    'made up within the hour)',
  async run(ctx, signal) {
    const summary = await runBilling(ctx, todayIn(ctx), signal);
    return { processed: summary.charged + summary.skipped + summary.notCharged, failed: summary.failed };
  },
  missedRun: billingRunMissed,
};

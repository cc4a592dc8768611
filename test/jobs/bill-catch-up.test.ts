import type { AppContext } from '../../src/context';
import { billJob, billingRunMissed } from '../../src/jobs/bill';
import { startScheduler, type CatchingUpJob } from '../../src/jobs/scheduler';
import { runBilling } from '../../src/modules/billing/run';
import { cli } from '../cli/runInMemory';
import { subscribe } from '../support/billing';
import { TEST_DATABASES } from '../support/databases';
import { createTestApp, useTestApp } from '../support/testApp';
import { createTwoContexts } from '../support/twoContexts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until an (async) condition holds: the scheduler's checks and runs go on by themselves. */
async function until(condition: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await sleep(25);
  }
}

/** The bill job, counting how often the scheduler asked whether its run is missing. */
function countedBillJob(): { job: CatchingUpJob; checks: () => number } {
  let checks = 0;
  const job: CatchingUpJob = {
    ...billJob,
    missedRun: (ctx) => {
      checks += 1;
      return billJob.missedRun(ctx);
    },
  };
  return { job, checks: () => checks };
}

/** Lets a scheduler of the bill job check `times` times (every 50 ms; hourly in production), then stops it. */
async function letItCheck(ctx: AppContext, times: number): Promise<void> {
  const counted = countedBillJob();
  const scheduler = startScheduler(ctx, [counted.job], { catchUpEveryMs: 50 });
  try {
    await until(async () => counted.checks() >= times);
  } finally {
    await scheduler.stop();
  }
}

/**
 * The bill job makes up a run BILLING_CRON (06:00 in Amsterdam, 05:00 UTC in winter) asked for and
 * that did not happen — the service was down, the run crashed, or the time fell in the hour skipped
 * when summer time starts — at the scheduler's start or its next check (hourly; 50 ms here).
 */
describe.each(TEST_DATABASES)('the bill job catching up on %s', (kind) => {
  describe('with the default BILLING_CRON', () => {
    const t = useTestApp(kind, { perTest: true }); // the clock starts on 2026-11-21
    let token: string;
    let accountId: string;

    beforeEach(async () => {
      ({ token, accountId } = await t.newAccount());
    });

    const runs = () => t.ctx.db('billing_runs').orderBy('seq');
    const finishedRuns = async () => (await runs()).filter((run) => run.finished_at !== null);
    const chargeStatus = async (subscriptionId: string) =>
      (await t.ctx.db('subscription_charges').where({ account_id: accountId, subscription_id: subscriptionId }).first())?.status ??
      'not planned';
    const recurringAtProvider = async () =>
      (await t.ctx.db('sandbox_payments').where({ account_id: accountId, sequence_type: 'recurring' })).length;

    it('When the service was down at 06:00 and starts at 09:00, then billing runs at its start and charges the day', async () => {
      const { subscriptionId } = await subscribe(t, token); // first charge 2026-12-01
      t.clock.set('2026-11-30T05:00:00Z');
      expect((await cli(t.ctx, 'jobs', 'run', 'bill')).code).toBe(0);
      t.clock.set('2026-12-01T08:00:00Z'); // down over 06:00 on 1 December
      expect(await billingRunMissed(t.ctx)).toBe(true);

      const scheduler = startScheduler(t.ctx, [billJob]);
      try {
        await until(async () => (await chargeStatus(subscriptionId)) === 'charged' && (await finishedRuns()).length === 2);
      } finally {
        await scheduler.stop();
      }
      expect((await finishedRuns()).map((run) => String(run.billing_date).slice(0, 10))).toEqual(['2026-11-30', '2026-12-01']);
      expect(t.logs.lines.some((line) => line.includes('a scheduled run did not happen; running it now'))).toBe(true);
      expect(await recurringAtProvider()).toBe(1);

      // Started again the same morning: the run happened, nothing is made up twice.
      t.clock.set('2026-12-01T08:30:00Z');
      await letItCheck(t.ctx, 3);
      expect(await runs()).toHaveLength(2);
    });

    it('When a run stopped halfway and stays silent, then the next check runs billing again', async () => {
      const { subscriptionId } = await subscribe(t, token);
      t.clock.set('2026-12-01T05:00:00Z');
      // A run cut off before it charged anything (as a killed process leaves it): started, never finished.
      const cutOff = new AbortController();
      cutOff.abort();
      await runBilling(t.ctx, '2026-12-01', cutOff.signal);
      expect(await runs()).toEqual([expect.objectContaining({ finished_at: null })]);

      // Two minutes on, it may still be going elsewhere: the check at start leaves it be.
      t.clock.set('2026-12-01T05:02:00Z');
      const counted = countedBillJob();
      const scheduler = startScheduler(t.ctx, [counted.job], { catchUpEveryMs: 50 });
      try {
        await until(async () => counted.checks() >= 2);
        expect(await runs()).toHaveLength(1);
        expect(await recurringAtProvider()).toBe(0);

        // An hour on it has not been heard of since: it crashed, and the next check makes it up.
        t.clock.set('2026-12-01T06:00:00Z');
        await until(async () => (await chargeStatus(subscriptionId)) === 'charged' && (await finishedRuns()).length === 1);
      } finally {
        await scheduler.stop();
      }
      expect(await runs()).toHaveLength(2);
      expect(await recurringAtProvider()).toBe(1);
    });

    it('When the day’s run happened, then the hourly check finds nothing missing and starts nothing', async () => {
      t.clock.set('2026-12-01T05:00:00Z');
      expect((await cli(t.ctx, 'jobs', 'run', 'bill')).code).toBe(0);
      t.clock.set('2026-12-01T13:00:00Z');
      await letItCheck(t.ctx, 4);
      expect(await runs()).toHaveLength(1);
      expect(t.logs.lines.some((line) => line.includes('a scheduled run did not happen'))).toBe(false);
    });

    it('When the only run after 06:00 billed as of an earlier day, or ran before 06:00, then the day’s run is still missing', async () => {
      t.clock.set('2026-12-01T04:30:00Z');
      expect((await cli(t.ctx, 'billing', 'run')).code).toBe(0); // 05:30, before BILLING_CRON
      t.clock.set('2026-12-01T08:00:00Z');
      expect(await billingRunMissed(t.ctx)).toBe(true);
      expect((await cli(t.ctx, 'billing', 'run', '--date', '2026-11-30')).code).toBe(0);
      expect(await billingRunMissed(t.ctx)).toBe(true);
      expect((await cli(t.ctx, 'billing', 'run')).code).toBe(0);
      expect(await billingRunMissed(t.ctx)).toBe(false);
    });
  });

  it('When BILLING_CRON falls in the hour skipped as summer time starts, then billing still runs that day', async () => {
    const t = await createTestApp(kind, { env: { BILLING_CRON: '30 2 * * *' } });
    try {
      const { token, accountId } = await t.newAccount();
      t.clock.set('2027-03-27T01:30:00Z'); // 02:30 CET on Saturday: the run of the 27th
      const { subscriptionId } = await subscribe(t, token, { startDate: '2027-03-28' });
      expect((await cli(t.ctx, 'jobs', 'run', 'bill')).code).toBe(0);

      // Sunday 28 March 2027: 02:00 CET is followed by 03:00 CEST; 02:30 never shows on the clock.
      t.clock.set('2027-03-28T00:59:00Z');
      expect(await billingRunMissed(t.ctx)).toBe(false);
      t.clock.set('2027-03-28T02:00:00Z'); // 04:00 CEST
      expect(await billingRunMissed(t.ctx)).toBe(true);
      const scheduler = startScheduler(t.ctx, [billJob]);
      try {
        await until(async () => (await t.ctx.db('billing_runs').whereNotNull('finished_at')).length === 2);
      } finally {
        await scheduler.stop();
      }
      const charge = await t.ctx.db('subscription_charges').where({ account_id: accountId, subscription_id: subscriptionId }).first();
      expect([String(charge.due_date).slice(0, 10), charge.status]).toEqual(['2027-03-28', 'charged']);
      expect(await billingRunMissed(t.ctx)).toBe(false);
    } finally {
      await t.close();
    }
  });

  it('When two instances check every hour, then only a missing run starts one, and the instance after it finds it done', async () => {
    const two = await createTwoContexts(kind);
    two.clock.set('2026-12-01T08:00:00Z'); // nothing ran at 06:00
    const first = countedBillJob();
    const firstScheduler = startScheduler(two.first, [first.job], { catchUpEveryMs: 50 });
    try {
      await until(async () => (await two.first.db('billing_runs').whereNotNull('finished_at')).length === 1);
      await letItCheck(two.second, 4);
      expect(first.checks()).toBeGreaterThan(1);
      expect(await two.first.db('billing_runs')).toHaveLength(1);
    } finally {
      await firstScheduler.stop();
      await two.close();
    }
  });
});

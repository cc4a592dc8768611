import { billableAccountAtFake, billingProcessEnv, expectEachPeriodChargedOnce, problemsIn } from '../support/billingProcesses';
import { TEST_DATABASES } from '../support/databases';
import { MollieFake } from '../../fakes/mollie/fake';
import { serveOverHttps } from '../../fakes/mollie/https';
import { runCliProcess, startCliProcess } from '../support/serviceProcess';
import { createTestApp, type TestApp } from '../support/testApp';
import { expectCleanAuditByProcess } from '../support/audit';

const SUBSCRIPTIONS = 15;
/** 1 December and 1 January: two periods due for every subscription. Both dates may lie ahead of today: the runs pass --force. */
const BILLING_DATE = '2027-01-15';
const PERIODS = SUBSCRIPTIONS * 2;
/** The larger run: 500 subscriptions, one period each (1 December). */
const MANY_SUBSCRIPTIONS = 500;
const MANY_DATE = '2026-12-01';

/**
 * Billing as separate processes of the built CLI against one database and a Mollie fake over HTTPS:
 * two runs at the same moment, a run killed with SIGKILL halfway, and (500 subscriptions) one of two
 * runs killed mid-run and started again. Counted at the fake, by
 * idempotency key and by our payment reference: one recurring payment per due period, never two.
 */
// Child processes start, crash and restart here; on a busy 2-core CI machine that takes longer than the default.
jest.setTimeout(90_000);

describe.each(TEST_DATABASES)('billing exactly once across processes, on %s', (kind) => {
  let t: TestApp;
  let fake: MollieFake;
  let mollie: { apiUrl: string; close(): Promise<void> };

  beforeEach(async () => {
    t = await createTestApp(kind);
    fake = new MollieFake('');
    mollie = await serveOverHttps(fake);
  });
  afterEach(async () => {
    fake.heal();
    fake.releaseHeld();
    await expectCleanAuditByProcess(billingProcessEnv(t, 1));
    await mollie.close();
    await t.close();
  });

  const env = (concurrency: number) => billingProcessEnv(t, concurrency);
  const problems = problemsIn;
  const billableAccount = () => billableAccountAtFake(t, fake, mollie.apiUrl, SUBSCRIPTIONS);
  const expectEachPeriodChargedOnceHere = (accountId: string) => expectEachPeriodChargedOnce(t, fake, accountId, PERIODS);

  it('When two processes run billing for the same date at once, then every due period is charged exactly once', async () => {
    const accountId = await billableAccount();
    const [first, second] = await Promise.all([
      runCliProcess(env(4), ['billing', 'run', '--date', BILLING_DATE, '--force']),
      runCliProcess(env(4), ['billing', 'run', '--date', BILLING_DATE, '--force']),
    ]);
    expect([first.code, second.code, problems(first.stderr), problems(second.stderr)]).toEqual([0, 0, [], []]);
    const charged = [first, second].map((run) => Number(/(\d+) charged/.exec(run.stdout)?.[1]));
    expect(charged[0] + charged[1]).toBe(PERIODS);
    await expectEachPeriodChargedOnceHere(accountId);
  });

  it(
    'When the process is killed halfway, after writing charge rows and while Mollie holds a charge, then the next run charges each ' +
      'row exactly once',
    async () => {
      const accountId = await billableAccount();
      fake.holdAnswers('POST', /^\/v2\/payments/, 1);
      const doomed = startCliProcess(env(1), ['billing', 'run', '--date', BILLING_DATE, '--force']);
      // The rows are written and the first charge is made at Mollie; its answer never arrives. A run that
      // dies before that (it cannot start) fails the test at once instead of waiting for the hold.
      await Promise.race([
        fake.untilHeld(),
        doomed.exited.then((run) => {
          throw new Error(`billing ended before its first charge reached Mollie: ${run.stderr}`);
        }),
      ]);
      await doomed.crash();
      // Planning runs beside charging, so it may have been cut off too: some rows are written, none charged.
      const written = await t.ctx.db('subscription_charges').where({ account_id: accountId });
      expect(written.length).toBeGreaterThan(0);
      expect(written.every((charge) => charge.status === 'due')).toBe(true);
      expect(await t.ctx.db('payments').where({ account_id: accountId, status: 'creating' })).toHaveLength(1);
      // The dead process's claims run out (made to look expired rather than waited for).
      await t.ctx.db('subscription_charges').where({ account_id: accountId }).update({ claimed_until: '2000-01-01 00:00:00' });

      const next = await runCliProcess(env(4), ['billing', 'run', '--date', BILLING_DATE, '--force']);
      expect({ code: next.code, problems: problems(next.stderr) }).toEqual({ code: 0, problems: [] });
      expect(next.stdout).toContain(`${PERIODS} due, ${PERIODS} charged`);
      await expectEachPeriodChargedOnceHere(accountId);
    },
  );

  it('When one of two billing processes is killed halfway and restarted, then every due period is charged exactly once', async () => {
    const accountId = await billableAccountAtFake(t, fake, mollie.apiUrl, MANY_SUBSCRIPTIONS);
    const survivor = startCliProcess(env(4), ['billing', 'run', '--date', MANY_DATE, '--force']);
    const doomed = startCliProcess(env(4), ['billing', 'run', '--date', MANY_DATE, '--force']);
    // Halfway: a fifth of the charges are at Mollie.
    while (fake.payments.size < MANY_SUBSCRIPTIONS / 5) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await doomed.crash();
    const restarted = startCliProcess(env(4), ['billing', 'run', '--date', MANY_DATE, '--force']);
    const [first, again] = await Promise.all([survivor.exited, restarted.exited]);
    expect([first.code, again.code, problems(first.stderr), problems(again.stderr)]).toEqual([0, 0, [], []]);

    // The killed process's claims run out (made to look expired rather than waited for); a last run
    // takes what it held, resuming any charge it left half made with that charge's own key.
    await t.ctx
      .db('subscription_charges')
      .where({ account_id: accountId })
      .whereNotIn('status', ['charged'])
      .update({ claimed_until: '2000-01-01 00:00:00' });
    const last = await runCliProcess(env(4), ['billing', 'run', '--date', MANY_DATE, '--force']);
    expect({ code: last.code, problems: problems(last.stderr) }).toEqual({ code: 0, problems: [] });
    await expectEachPeriodChargedOnce(t, fake, accountId, MANY_SUBSCRIPTIONS);
  }, 180_000); // 500 charges by three processes on 2 cores
});

import { TEST_DATABASES } from '../support/databases';
import { billableAccountAtFake, billingProcessEnv, expectEachPeriodChargedOnce, problemsIn } from '../support/billingProcesses';
import { MollieFake } from '../support/mollieFake/fake';
import { serveOverHttps } from '../support/mollieFake/https';
import { runCliProcess, startCliProcess } from '../support/serviceProcess';
import { createTestApp, type TestApp } from '../support/testApp';

const SUBSCRIPTIONS = 500;
const BILLING_DATE = '2026-12-01';

// Two billing processes with 500 charges, one killed and restarted: longer than jest's default on 2 cores.
jest.setTimeout(180_000);

/**
 * Two processes of the built CLI run billing for 500 due subscriptions at the same moment; one is
 * killed with SIGKILL in the middle of its run and started again. Counted at the Mollie fake: every
 * due period charged exactly once, with one key.
 */
describe.each(TEST_DATABASES)('billing by two processes, one killed mid-run and restarted, on %s', (kind) => {
  let t: TestApp;
  let fake: MollieFake;
  let mollie: { apiUrl: string; close(): Promise<void> };

  beforeEach(async () => {
    t = await createTestApp(kind);
    fake = new MollieFake('');
    mollie = await serveOverHttps(fake);
  });
  afterEach(async () => {
    await mollie.close();
    await t.close();
  });

  it('When one of two billing processes is killed halfway and restarted, then every due period is charged exactly once', async () => {
    const accountId = await billableAccountAtFake(t, fake, mollie.apiUrl, SUBSCRIPTIONS);
    const env = billingProcessEnv(t, 4);
    const survivor = startCliProcess(env, ['billing', 'run', '--date', BILLING_DATE]);
    const doomed = startCliProcess(env, ['billing', 'run', '--date', BILLING_DATE]);
    // Halfway: a fifth of the charges are at Mollie.
    while (fake.payments.size < SUBSCRIPTIONS / 5) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await doomed.crash();
    const restarted = startCliProcess(env, ['billing', 'run', '--date', BILLING_DATE]);
    const [first, again] = await Promise.all([survivor.exited, restarted.exited]);
    expect([first.code, again.code, problemsIn(first.stderr), problemsIn(again.stderr)]).toEqual([0, 0, [], []]);

    // The killed process's claims run out (made to look expired rather than waited for); a last run
    // takes what it held, resuming any charge it left half made with that charge's own key.
    await t.ctx.db('subscription_charges').where({ account_id: accountId }).whereNotIn('status', ['charged']).update({ claimed_until: '2000-01-01 00:00:00' });
    const last = await runCliProcess(env, ['billing', 'run', '--date', BILLING_DATE]);
    expect({ code: last.code, problems: problemsIn(last.stderr) }).toEqual({ code: 0, problems: [] });
    await expectEachPeriodChargedOnce(t, fake, accountId, SUBSCRIPTIONS);
  });
});

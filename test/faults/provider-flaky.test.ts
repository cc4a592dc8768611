import { CHARGE_RETRY_AFTER_MS } from '../../src/modules/billing/charging';
import { runBilling } from '../../src/modules/billing/run';
import { billableAccountAtFake } from '../support/billingProcesses';
import { TEST_DATABASES } from '../support/databases';
import { seededRandom, type MollieFake } from '../../fakes/mollie/fake';
import { fakeMollieOnClock } from '../../fakes/mollie/nock';
import { useTestApp } from '../support/testApp';

const SUBSCRIPTIONS = 60;

/**
 * A provider that fails a fifth of the charges with a 5xx (nothing done) and lets a tenth time out
 * (done at Mollie, the answer too late for our 300 ms limit). Billing runs again until every period
 * is charged: each is charged exactly once at Mollie, with one key, and none is left behind.
 */
describe.each(TEST_DATABASES)('billing against a flaky provider, on %s', (kind) => {
  const t = useTestApp(kind, { perTest: true, audited: true, env: { MOLLIE_TIMEOUT_MS: '300' } });
  let fake: MollieFake;
  let served: { stop(): void };

  beforeEach(async () => {
    ({ fake, ...served } = fakeMollieOnClock(t.clock));
  });
  afterEach(async () => {
    served.stop();
  });

  it('When 20 % of charges fail with 5xx and 10 % time out, then every period is charged eventually, none twice', async () => {
    const accountId = await billableAccountAtFake(t, fake, undefined, SUBSCRIPTIONS);
    fake.flaky('POST', /^\/v2\/payments/, { serverErrors: 0.2, timeouts: 0.1, lateByMs: 600, random: seededRandom(20261123) });

    let runs = 0;
    let charged = 0;
    while (charged < SUBSCRIPTIONS && runs < 30) {
      runs += 1;
      await runBilling(t.ctx, '2026-12-01');
      charged = (await t.ctx.db('subscription_charges').where({ account_id: accountId, status: 'charged' })).length;
      t.clock.advance(CHARGE_RETRY_AFTER_MS + 1_000);
    }
    await fake.settled();

    expect(fake.faultsDone).toMatchObject({ serverErrors: expect.any(Number), timeouts: expect.any(Number) });
    expect(fake.faultsDone.serverErrors).toBeGreaterThan(0);
    expect(fake.faultsDone.timeouts).toBeGreaterThan(0);
    expect(charged).toBe(SUBSCRIPTIONS);
    const payments = await t.ctx.db('payments').where({ account_id: accountId, purpose: 'charge' });
    expect(payments).toHaveLength(SUBSCRIPTIONS);
    for (const payment of payments) expect(fake.paymentsWithReference(payment.id)).toHaveLength(1);
    expect(fake.payments.size).toBe(SUBSCRIPTIONS);
    const charges = await t.ctx.db('subscription_charges').where({ account_id: accountId });
    expect(new Set(charges.map((charge: { payment_id: string }) => charge.payment_id)).size).toBe(SUBSCRIPTIONS);
  });
});

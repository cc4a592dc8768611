import { finishStalledCreations } from '../../src/jobs/finishProviderCreations';
import { CHARGE_RETRY_AFTER_MS } from '../../src/modules/billing/charging';
import { runBilling } from '../../src/modules/billing/run';
import { billableAccountAtFake } from '../support/billingProcesses';
import { TEST_DATABASES } from '../support/databases';
import { MollieFake } from '../../fakes/mollie/fake';
import { serveWithNock } from '../../fakes/mollie/nock';
import { useTestApp } from '../support/testApp';

const HOUR = 60 * 60 * 1000;

/** A charge whose answer from Mollie is lost: kept, resumed with the same key or found by reference; never made twice. */
describe.each(TEST_DATABASES)('billing when Mollie’s answer is lost, on %s', (kind) => {
  const t = useTestApp(kind, { perTest: true, audited: true });
  let fake: MollieFake;
  let served: { stop(): void };
  let accountId: string;

  beforeEach(async () => {
    fake = new MollieFake('https://api.mollie.com');
    fake.now = () => t.clock.now().getTime();
    served = serveWithNock(fake);
    accountId = await billableAccountAtFake(t, fake, undefined, 1);
  });
  afterEach(async () => {
    served.stop();
  });

  const chargePayments = () => t.ctx.db('payments').where({ account_id: accountId, purpose: 'charge' });

  it(
    'When the answer is lost, then the charge stays due with its payment kept, and the next run records the one payment Mollie ' + 'made',
    async () => {
      fake.loseAnswers('POST', /^\/v2\/payments/, 1);
      const first = await runBilling(t.ctx, '2026-12-01');
      expect(first).toMatchObject({ due: 1, charged: 0, failed: 1 });
      const [kept] = await chargePayments();
      expect(kept).toMatchObject({ status: 'creating' });
      expect(fake.paymentsWithReference(kept.id)).toHaveLength(1);
      const [charge] = await t.ctx.db('subscription_charges').where({ account_id: accountId });
      expect(charge).toMatchObject({ status: 'due', attempts: 1 });

      // A run at once does not hammer it; one after the retry delay resumes it with the same key.
      expect((await runBilling(t.ctx, '2026-12-01')).due).toBe(0);
      t.clock.advance(CHARGE_RETRY_AFTER_MS + 1000);
      expect(await runBilling(t.ctx, '2026-12-01')).toMatchObject({ due: 1, charged: 1, failed: 0 });
      expect(await chargePayments()).toEqual([
        expect.objectContaining({ id: kept.id, status: 'pending', provider_payment_id: fake.paymentsWithReference(kept.id)[0]?.id }),
      ]);
      expect(fake.payments.size).toBe(1);
    },
  );

  it('When the answer is lost and the key has expired at Mollie, then the payment is found by reference, not made again', async () => {
    fake.loseAnswers('POST', /^\/v2\/payments/, 1);
    await runBilling(t.ctx, '2026-12-01');
    const [kept] = await chargePayments();
    t.clock.advance(2 * HOUR); // past Mollie's one-hour idempotency window
    expect(await runBilling(t.ctx, '2026-12-01')).toMatchObject({ charged: 1 });
    expect(fake.paymentsWithReference(kept.id)).toHaveLength(1);
    expect(fake.payments.size).toBe(1);
    expect(await chargePayments()).toHaveLength(1);
  });

  it('When the job that finishes stalled creations gets there first, then the next run only records that payment', async () => {
    fake.loseAnswers('POST', /^\/v2\/payments/, 1);
    await runBilling(t.ctx, '2026-12-01');
    t.clock.advance(10 * 60 * 1000);
    await finishStalledCreations(t.ctx, new AbortController().signal);
    const [finished] = await chargePayments();
    expect(finished.status).toBe('pending');
    expect(await runBilling(t.ctx, '2026-12-01')).toMatchObject({ charged: 1 });
    expect(fake.payments.size).toBe(1);
    expect((await t.ctx.db('subscription_charges').where({ account_id: accountId }))[0]).toMatchObject({
      status: 'charged',
      payment_id: finished.id,
    });
  });
});

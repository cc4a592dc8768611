import { cli } from '../cli/runInMemory';
import { TEST_DATABASES } from '../support/databases';
import { MollieFake } from '../../fakes/mollie/fake';
import { serveWithNock } from '../../fakes/mollie/nock';
import { billableAccountWithToken, mollieCallsWebhook } from '../support/paidCharges';
import { useTestApp } from '../support/testApp';

/**
 * Cancelling a subscription ends the charges dated on or after its cancel_at (L2). A charge due
 * before it — even one whose payment is under way at Mollie, or one billing has not planned yet
 * because it was down — is made and recorded normally, never dropped with the debit left behind.
 */
describe.each(TEST_DATABASES)('cancelling with a charge due before the cancellation, on %s', (kind) => {
  const t = useTestApp(kind, { perTest: true });
  let fake: MollieFake;
  let served: { stop(): void };
  let accountId: string;
  let token: string;
  let subscriptionId: string;

  beforeEach(async () => {
    fake = new MollieFake('https://api.mollie.com');
    fake.now = () => t.clock.now().getTime();
    served = serveWithNock(fake);
    ({ accountId, token } = await billableAccountWithToken(t, fake)); // monthly from 2026-12-01
    subscriptionId = String((await t.ctx.db('subscriptions').where({ account_id: accountId }).first('id')).id);
  });
  afterEach(async () => {
    served.stop();
  });

  const on = (date: string) => t.clock.set(`${date}T07:00:00Z`);
  const bill = async () => {
    const run = await cli(t.ctx, 'billing', 'run');
    expect(run.code).toBe(0);
  };
  const charges = () => t.ctx.db('subscription_charges').where({ account_id: accountId }).orderBy('charge_number');
  const cancel = async (body: Record<string, string> = {}) => {
    const res = await t.as(token).delete(`/api/v2/subscriptions/${subscriptionId}`).send(body);
    expect(res.status).toBe(200);
    return res.body as { status: string; cancel_at: string };
  };

  it(
    'When a charge’s payment is under way and the subscription is cancelled the next day, then that charge is made and paid, and ' +
      'none after it',
    async () => {
      on('2026-12-01');
      fake.loseAnswers('POST', /^\/v2\/payments/, 1);
      await bill();
      const [kept] = await t.ctx.db('payments').where({ account_id: accountId, purpose: 'charge' });
      expect(kept.status).toBe('creating');

      on('2026-12-02');
      expect(await cancel()).toMatchObject({ status: 'cancelled', cancel_at: '2026-12-02' });
      await bill();
      const [made] = fake.paymentsWithReference(kept.id);
      expect(await charges()).toEqual([expect.objectContaining({ charge_number: 1, status: 'charged', payment_id: kept.id })]);

      fake.setPaymentStatus(String(made?.id), 'paid');
      await mollieCallsWebhook(t, accountId, String(made?.id));
      expect((await charges())[0]).toMatchObject({ status: 'paid' });

      on('2027-01-01');
      await bill();
      expect(await charges()).toHaveLength(1);
      expect(fake.payments.size).toBe(1);
      expect((await t.as(token).get(`/api/v2/subscriptions/${subscriptionId}`)).body.status).toBe('cancelled');
    },
  );

  it(
    'When billing was down and the subscription is cancelled after a charge fell due, then the next run makes that charge once, and ' +
      'none on or after the cancellation',
    async () => {
      on('2026-12-03'); // the run of 1 December never happened
      expect(await cancel()).toMatchObject({ status: 'cancelled', cancel_at: '2026-12-03' });
      await bill();
      expect(await charges()).toEqual([expect.objectContaining({ charge_number: 1, due_date: '2026-12-01', status: 'charged' })]);
      await bill();
      on('2027-02-01');
      await bill();
      expect(await charges()).toHaveLength(1);
      expect(fake.payments.size).toBe(1);
    },
  );

  it('When cancelled on the day a charge falls due, before the run, then that charge is not made', async () => {
    on('2026-12-01');
    await cancel();
    await bill();
    expect(await charges()).toEqual([]);
    expect(fake.payments.size).toBe(0);
    // Nothing is left for billing to look at.
    expect((await t.ctx.db('subscriptions').where({ id: subscriptionId }).first()).next_charge_date).toBeNull();
  });
});

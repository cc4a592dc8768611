import { reconcilePayments } from '../../src/jobs/reconcilePayments';
import { fromDbDateTime } from '../../src/time';
import { processDueWebhookCalls } from '../../src/modules/payments/webhookCalls';
import { TEST_DATABASES } from '../support/databases';
import type { MollieFake } from '../../fakes/mollie/fake';
import { fakeMollieOnClock } from '../../fakes/mollie/nock';
import { billableAccountWithToken, mollieCallsWebhook, paidCharges } from '../support/paidCharges';
import { useTestApp } from '../support/testApp';

const MINUTE = 60_000;
const PAYMENT_LOOKUPS = /^\/v2\/payments\/tr_/;

/**
 * A provider webhook call is given up 26 hours after it arrived, when Mollie could not be asked all
 * that time. Reconciliation takes it over: it fetches the payment the call named whatever its status
 * here, so a refund or chargeback of a paid payment is applied too. Against the Mollie fake.
 */
describe.each(TEST_DATABASES)('reconciliation of given-up provider webhook calls on %s', (kind) => {
  const t = useTestApp(kind, { perTest: true });
  let fake: MollieFake;
  let stopFake: () => void;
  let accountId: string;
  let token: string;
  const noAbort = new AbortController().signal;

  beforeEach(async () => {
    ({ fake, stop: stopFake } = fakeMollieOnClock(t.clock));
  });
  afterEach(async () => {
    stopFake();
  });

  const callsAbout = (providerPaymentId: string) =>
    t.ctx.db('provider_webhook_calls').where({ account_id: accountId, resource_id: providerPaymentId });
  const lookupsOf = (providerPaymentId: string) =>
    fake.requests.filter((request) => request.method === 'GET' && request.path.startsWith(`/v2/payments/${providerPaymentId}`)).length;
  const payment = async (id: string) => (await t.as(token).get(`/api/v2/payments/${id}`)).body;
  const followUps = async () => (await t.as(token).get('/api/v2/follow-ups')).body.data as Array<Record<string, unknown>>;

  /** Mollie reports news of the payment while it cannot be asked; the job retries each call until it gives it up. */
  async function givenUpCall(providerPaymentId: string): Promise<void> {
    fake.unreachable('GET', PAYMENT_LOOKUPS);
    await mollieCallsWebhook(t, accountId, providerPaymentId);
    for (let guard = 0; ; guard += 1) {
      expect(guard).toBeLessThan(30);
      const [call] = await callsAbout(providerPaymentId).whereNull('processed_at').whereNull('gave_up_at');
      if (!call) break;
      t.clock.set(fromDbDateTime(call.next_attempt_at));
      await processDueWebhookCalls(t.ctx, noAbort);
    }
    fake.heal();
  }

  const refundAtFake = (providerPaymentId: string) => {
    const atFake = fake.payments.get(providerPaymentId);
    if (!atFake) throw new Error(`no payment ${providerPaymentId} at the fake`);
    atFake.amountRefunded = atFake.amount;
  };

  it('When a chargeback’s call was given up, then one reconciliation run applies it: charged_back, with its follow-up', async () => {
    ({ accountId, token } = await billableAccountWithToken(t, fake));
    const [charge] = await paidCharges(t, fake, accountId);
    if (!charge) throw new Error('no charge');
    fake.chargeBack(charge.provider_payment_id);
    await givenUpCall(charge.provider_payment_id);
    expect((await payment(charge.id)).status).toBe('paid');
    expect(await followUps()).toEqual([]);

    expect(await reconcilePayments(t.ctx, noAbort)).toEqual({ processed: 1, failed: 0 });
    expect((await payment(charge.id)).status).toBe('charged_back');
    expect(await followUps()).toEqual([
      expect.objectContaining({ reason_code: 'MD06', amount: '12.50', provider_payment_id: charge.provider_payment_id, status: 'pending' }),
    ]);
    const calls = await callsAbout(charge.provider_payment_id).whereNotNull('gave_up_at');
    expect(calls).toEqual([expect.objectContaining({ reconciled_at: expect.any(String), processed_at: null })]);

    // Reconciled: later runs leave it alone.
    const lookups = lookupsOf(charge.provider_payment_id);
    t.clock.advance(60 * MINUTE);
    expect(await reconcilePayments(t.ctx, noAbort)).toEqual({ processed: 0, failed: 0 });
    expect(lookupsOf(charge.provider_payment_id)).toBe(lookups);
  });

  it('When a refund’s call was given up, then one reconciliation run makes the paid payment refunded', async () => {
    ({ accountId, token } = await billableAccountWithToken(t, fake));
    const [charge] = await paidCharges(t, fake, accountId);
    if (!charge) throw new Error('no charge');
    refundAtFake(charge.provider_payment_id);
    await givenUpCall(charge.provider_payment_id);
    expect((await payment(charge.id)).status).toBe('paid');

    expect(await reconcilePayments(t.ctx, noAbort)).toEqual({ processed: 1, failed: 0 });
    const refunded = await payment(charge.id);
    expect(refunded.status).toBe('refunded');
    expect(refunded.status_history.map((change: { status: string }) => change.status)).toEqual(['pending', 'paid', 'refunded']);
  });

  it('When Mollie still cannot be asked, then the given-up call waits 20 minutes and is reconciled on a later run', async () => {
    ({ accountId, token } = await billableAccountWithToken(t, fake));
    const [charge] = await paidCharges(t, fake, accountId);
    if (!charge) throw new Error('no charge');
    fake.chargeBack(charge.provider_payment_id);
    await givenUpCall(charge.provider_payment_id);

    fake.unreachable('GET', PAYMENT_LOOKUPS);
    expect(await reconcilePayments(t.ctx, noAbort)).toEqual({ processed: 0, failed: 1 });
    expect(
      t.logs.lines.some(
        (line) => line.includes('reconciliation of a given-up webhook call failed') && line.includes(charge.provider_payment_id),
      ),
    ).toBe(true);
    fake.heal();
    t.clock.advance(10 * MINUTE);
    expect(await reconcilePayments(t.ctx, noAbort)).toEqual({ processed: 0, failed: 0 });
    t.clock.advance(10 * MINUTE);
    expect(await reconcilePayments(t.ctx, noAbort)).toEqual({ processed: 1, failed: 0 });
    expect((await payment(charge.id)).status).toBe('charged_back');
  });

  it('When more given-up calls wait than half a run, then a run takes half of them and the next run the rest', async () => {
    ({ accountId, token } = await billableAccountWithToken(t, fake, 4));
    const charges = await paidCharges(t, fake, accountId);
    for (const charge of charges) {
      fake.chargeBack(charge.provider_payment_id);
      await givenUpCall(charge.provider_payment_id);
    }
    const before = fake.requests.length;
    expect(await reconcilePayments(t.ctx, noAbort, 4)).toEqual({ processed: 2, failed: 0 });
    expect(fake.requests.length - before).toBeLessThanOrEqual(4);
    expect(await followUps()).toHaveLength(2);
    expect(await reconcilePayments(t.ctx, noAbort, 4)).toEqual({ processed: 2, failed: 0 });
    expect(await followUps()).toHaveLength(4);
  });
});

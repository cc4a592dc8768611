import { reconcilePayments } from '../../src/jobs/reconcilePayments';
import { settleSandbox } from '../../src/jobs/settleSandbox';
import { sandboxPaymentsDue, settleDueOf } from '../../src/providers/sandbox/settlement';
import { billAsOf, subscribe } from '../support/billing';
import { TEST_DATABASES } from '../support/databases';
import { useTestApp } from '../support/testApp';

const SECOND = 1000;
const DAY = 24 * 60 * 60 * SECOND;

/**
 * The `settle-sandbox` job: the sandbox settles its recurring charges and refunds a few seconds after making
 * them and reports each change in-process. Two runs at once settle and report a payment once; a change whose
 * report is lost (a crash in between) is caught by `reconcile-payments`; where the sandbox is off it does nothing.
 */
describe.each(TEST_DATABASES)('the settle-sandbox job on %s', (kind) => {
  const t = useTestApp(kind, { perTest: true, audited: true });
  const run = () => settleSandbox(t.ctx, new AbortController().signal);

  /** A subscription billed once: its charge, pending at the sandbox and here. */
  async function billedCharge(amount = 12.5): Promise<{ token: string; chargeId: string }> {
    const { token } = await t.newAccount();
    const { subscriptionId } = await subscribe(t, token, {
      startDate: '2026-11-22',
      rules: [{ amount, interval: 'month', interval_amount: 1 }],
    });
    await billAsOf(t.ctx, '2026-11-22');
    const [charge] = (await t.as(token).get('/api/v2/payments')).body.data.filter(
      (row: { subscription_id: string | null }) => row.subscription_id === subscriptionId,
    );
    expect(charge).toMatchObject({ status: 'pending' });
    return { token, chargeId: charge.id };
  }
  const statusOf = async (token: string, paymentId: string) => (await t.as(token).get(`/api/v2/payments/${paymentId}`)).body;

  it('When two runs settle at once, then each charge is settled and reported once', async () => {
    const { token, chargeId } = await billedCharge();
    t.clock.advance(5 * SECOND);
    const [one, two] = await Promise.all([run(), run()]);
    expect((one?.processed ?? 0) + (two?.processed ?? 0)).toBe(1);
    expect((await statusOf(token, chargeId)).status).toBe('paid');
    const [calls] = await t.ctx.db('provider_webhook_calls').where({ provider: 'sandbox' }).count({ n: '*' });
    expect(Number(calls?.n)).toBe(1);
  });

  it('When a charge fails by its cents, then it is failed here within seconds with the reason of outcomes.ts', async () => {
    const { token, chargeId } = await billedCharge(12.13);
    t.clock.advance(5 * SECOND);
    expect(await run()).toEqual({ processed: 1, failed: 0 });
    expect(await statusOf(token, chargeId)).toMatchObject({ status: 'failed', failure_code: 'AM04' });
  });

  it('When the report of a settled charge is lost to a crash, then reconcile-payments records it', async () => {
    const { token, chargeId } = await billedCharge();
    t.clock.advance(5 * SECOND);
    // The sandbox's change alone, as if the process died before the webhook call was recorded.
    for (const due of await sandboxPaymentsDue(t.ctx.db, t.clock.now(), 10)) await settleDueOf(t.ctx.db, due, t.clock.now());
    expect(await run()).toEqual({ processed: 0, failed: 0 });
    expect((await statusOf(token, chargeId)).status).toBe('pending');
    t.clock.advance(8 * DAY);
    await reconcilePayments(t.ctx, new AbortController().signal);
    expect((await statusOf(token, chargeId)).status).toBe('paid');
  });

  it('When the report of a settled refund is lost to a crash, then reconcile-payments records it', async () => {
    const { token, chargeId } = await billedCharge();
    t.clock.advance(5 * SECOND);
    await run();
    const refund = await t.as(token).post(`/api/v2/payments/${chargeId}/refunds`, { amount: 2.5, description: 'Broken cup' });
    expect(refund.body.status).toBe('pending');
    t.clock.advance(5 * SECOND);
    for (const due of await sandboxPaymentsDue(t.ctx.db, t.clock.now(), 10)) await settleDueOf(t.ctx.db, due, t.clock.now());
    expect(await run()).toEqual({ processed: 0, failed: 0 });
    t.clock.advance(11 * 60 * SECOND);
    await reconcilePayments(t.ctx, new AbortController().signal);
    expect((await t.as(token).get(`/api/v2/payments/${chargeId}/refunds/${refund.body.id}`)).body.status).toBe('refunded');
    expect(await statusOf(token, chargeId)).toMatchObject({ status: 'paid' });
  });
});

describe.each(TEST_DATABASES)('the settle-sandbox job with the sandbox off, on %s', (kind) => {
  const t = useTestApp(kind, { env: { SANDBOX: 'off' } });

  it('When the sandbox is off, then a run settles nothing', async () => {
    expect(await settleSandbox(t.ctx, new AbortController().signal)).toEqual({ processed: 0, failed: 0 });
  });
});

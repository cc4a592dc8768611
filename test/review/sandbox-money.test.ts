import { reconcilePayments } from '../../src/jobs/reconcilePayments';
import { settleSandbox } from '../../src/jobs/settleSandbox';
import { processWebhookCall, recordWebhookCall } from '../../src/modules/payments/webhookCalls';
import { sandboxPaymentsDue, settleDueOf } from '../../src/providers/sandbox/settlement';
import { billAsOf } from '../support/billing';
import { TEST_DATABASES } from '../support/databases';
import { useTestApp } from '../support/testApp';

const SECOND = 1000;
const DAY = 24 * 60 * 60 * SECOND;

/**
 * Review of issue 38 (the sandbox settles by itself). Each test states the money rule that should hold;
 * a red test is the proof that it does not.
 */
describe.each(TEST_DATABASES)('review: sandbox settlement money on %s', (kind) => {
  const t = useTestApp(kind, { perTest: true, audited: true });
  const later = async (ms: number) => {
    t.clock.advance(ms);
    return settleSandbox(t.ctx, new AbortController().signal);
  };

  /** A 9.95 monthly subscription on the MD06-of-debit-1-after-3-days IBAN, billed once and paid. */
  async function paidChargeToBeChargedBack(
    iban = 'NL62 SNDB 0006 0103 00',
    settle = true,
  ): Promise<{ token: string; chargeId: string; providerId: string }> {
    const { token } = await t.newAccount();
    const api = t.as(token);
    const customer = await api.post('/api/v2/customers', { first_name: 'Anna', last_name: 'de Vries', email: 'anna@example.nl' });
    const mandate = await api.post(`/api/v2/customers/${customer.body.id}/mandates`, {
      consumer_name: 'A. de Vries',
      consumer_account: iban,
    });
    expect(mandate.status).toBe(201);
    const subscription = await api.post('/api/v2/subscriptions', {
      name: 'Coffee club',
      customer_id: customer.body.id,
      provider_profile_id: 'pfl_demo',
      provider_mandate_id: mandate.body.id,
      start_date: '2026-11-22',
      rules: [{ amount: 9.95, interval: 'month', interval_amount: 1 }],
    });
    expect(subscription.status).toBe(201);
    await billAsOf(t.ctx, '2026-11-22');
    if (settle) expect(await later(5 * SECOND)).toEqual({ processed: 1, failed: 0 });
    const [charge] = (await api.get('/api/v2/payments?per_page=100')).body.data.filter(
      (row: { subscription_id: string | null }) => row.subscription_id === subscription.body.id,
    );
    expect(charge).toMatchObject({ status: settle ? 'paid' : 'pending' });
    return { token, chargeId: charge.id, providerId: charge.provider_payment_id };
  }

  it('When a refund is still pending as the charge-back comes, then no more than the amount goes back', async () => {
    const { token, chargeId, providerId } = await paidChargeToBeChargedBack();
    // One second before the charge-back is due, the merchant refunds 2.00 (pending for 3 s at the sandbox).
    expect(await later(3 * DAY - 1 * SECOND)).toEqual({ processed: 0, failed: 0 });
    const refund = await t.as(token).post(`/api/v2/payments/${chargeId}/refunds`, { amount: 2, description: 'Goodwill' });
    expect(refund.status).toBe(201);
    expect(refund.body.status).toBe('pending');
    // The charge-back is due now, the refund 2 s later: the job charges back, then settles the refund.
    expect(await later(1 * SECOND)).toEqual({ processed: 1, failed: 0 });
    await later(5 * SECOND);
    const row = await t.ctx.db('sandbox_payments').where({ id: providerId }).first();
    const wentBack = Number(row.amount_refunded) + Number(row.amount_charged_back);
    // Observed on main: refunded 2.00 + charged back 9.95 = 11.95 of a 9.95 payment.
    expect(wentBack).toBeLessThanOrEqual(Number(row.amount));
  });

  it('When the report of a charge-back is lost to a crash, then reconcile-payments records it', async () => {
    const { token, chargeId } = await paidChargeToBeChargedBack();
    t.clock.advance(3 * DAY + 5 * SECOND);
    // The sandbox's change alone, as if the process died before the webhook call was recorded.
    let moved = 0;
    for (const due of await sandboxPaymentsDue(t.ctx.db, t.clock.now(), 10))
      if (await settleDueOf(t.ctx.db, due, t.clock.now())) moved += 1;
    expect(moved).toBe(1);
    expect(await later(5 * SECOND)).toEqual({ processed: 0, failed: 0 });
    for (const days of [1, 2, 8, 30]) {
      t.clock.advance(days * DAY);
      await reconcilePayments(t.ctx, new AbortController().signal);
    }
    expect((await t.as(token).get(`/api/v2/payments/${chargeId}`)).body.status).toBe('charged_back');
  });

  it('When two instances settle a same-day charge-back debit at once, then our side hears it paid, then charged back', async () => {
    // MD06 on debit 1 after 0 days: chargeback_at is the moment it is paid.
    const { token, chargeId } = await paidChargeToBeChargedBack('NL14 SNDB 0006 0100 00', false);
    t.clock.advance(5 * SECOND);
    const [due] = await sandboxPaymentsDue(t.ctx.db, t.clock.now(), 10);
    // Instance A pays the charge; before A reports it, instance B's run (same tick) finds the charge-back due.
    expect(await settleDueOf(t.ctx.db, due!, t.clock.now())).toBe(true);
    const [dueB] = await sandboxPaymentsDue(t.ctx.db, t.clock.now(), 10);
    expect(dueB).toBeDefined();
    expect(await settleDueOf(t.ctx.db, dueB!, t.clock.now())).toBe(true);
    // Both report; each report fetches the payment as it is now.
    for (let i = 0; i < 2; i += 1) {
      expect(await processWebhookCall(t.ctx, await recordWebhookCall(t.ctx, 'sandbox', due!.account_id, due!.id))).toBe('processed');
    }
    // Observed on main: both reports read `charged_back`, which canMoveTo refuses from `pending`: it stays pending here.
    const payment = (await t.as(token).get(`/api/v2/payments/${chargeId}`)).body;
    expect(payment.status).toBe('charged_back');
    const followUps = (await t.as(token).get('/api/v2/follow-ups')).body.data;
    expect(followUps).toEqual([expect.objectContaining({ reason_code: 'MD06', amount: '9.95' })]);
  });
});

import request from 'supertest';
import { runBilling } from '../../src/modules/billing/run';
import { processDueWebhookCalls } from '../../src/modules/payments/webhookCalls';
import { subscribe } from '../support/billing';
import { TEST_DATABASES } from '../support/databases';
import { openPortal } from '../support/portal';
import { useTestApp } from '../support/testApp';

/**
 * The money side of the portal's actions, counted where the money moves: the recurring payments the
 * provider (the in-process sandbox) holds. A skipped or paused period is never charged, not even
 * later; a cancellation in the portal charges nothing after the paid period; a new payment method
 * chosen in the portal is what the next charge uses. Subscriptions start on 2026-12-01, 12.50 a month.
 */
describe.each(TEST_DATABASES)('money after portal actions on %s', (kind) => {
  const t = useTestApp(kind, { perTest: true }); // the clock starts on 2026-11-21
  let token: string;
  let accountId: string;

  beforeEach(async () => {
    ({ token, accountId } = await t.newAccount());
  });
  afterEach(() => t.ctx.background.idle());

  /** One billing pass on `date` with the clock there, and the sandbox's answers about its charges taken in. */
  async function billOn(date: string) {
    t.clock.set(`${date}T06:00:00Z`);
    await runBilling(t.ctx, date);
    const account = await t.ctx.db('accounts').where({ id: accountId }).first();
    for (const payment of await t.ctx.db('payments').where({ account_id: accountId, purpose: 'charge' })) {
      await request(t.app).post(`/webhooks/mollie?account=${account.public_ref}`).type('form').send({ id: payment.provider_payment_id });
    }
    await processDueWebhookCalls(t.ctx, new AbortController().signal);
    await t.ctx.background.idle();
  }
  /** What the provider was asked to charge: the recurring payments it holds, by their mandate. */
  const chargedAtProvider = () =>
    t.ctx.db('sandbox_payments').where({ account_id: accountId, sequence_type: 'recurring' }).orderBy('created_at').pluck('mandate_id');
  const chargeStates = async (subscriptionId: string) =>
    (await t.ctx.db('subscription_charges').where({ subscription_id: subscriptionId }).orderBy('charge_number')).map((row) => [
      String(row.due_date).slice(0, 10),
      row.status,
    ]);

  it('When the next charge is skipped in the portal, then that period is never charged, on its day or later', async () => {
    const { customerId, subscriptionId, mandateId } = await subscribe(t, token);
    const portal = await openPortal(t, token, customerId);
    expect((await portal.post(`/portal/subscriptions/${subscriptionId}/skip`, { date: '2026-12-01' })).status).toBe(303);
    for (const date of ['2026-12-01', '2026-12-02', '2026-12-15', '2027-01-01']) await billOn(date);
    expect(await chargeStates(subscriptionId)).toEqual([
      ['2026-12-01', 'skipped'],
      ['2027-01-01', 'paid'],
    ]);
    expect(await chargedAtProvider()).toEqual([mandateId]);
  });

  it(
    'When the subscription is paused in the portal until mid-January, then December and January are never charged and ' +
      'charging resumes in February',
    async () => {
      const { customerId, subscriptionId, mandateId } = await subscribe(t, token);
      const portal = await openPortal(t, token, customerId);
      expect((await portal.post(`/portal/subscriptions/${subscriptionId}/pause`, { until: '2027-01-15' })).status).toBe(303);
      for (const date of ['2026-12-01', '2027-01-01', '2027-01-15', '2027-01-20']) await billOn(date);
      expect(await chargedAtProvider()).toEqual([]);
      expect(await t.ctx.db('subscriptions').where({ id: subscriptionId }).first()).toMatchObject({ status: 'active', resume_at: null });
      await billOn('2027-02-01');
      expect(await chargedAtProvider()).toEqual([mandateId]);
      expect((await chargeStates(subscriptionId)).filter(([, status]) => status !== 'skipped')).toEqual([['2027-02-01', 'paid']]);
    },
  );

  it('When the customer cancels in the portal after the first charge, then nothing is charged after the paid period', async () => {
    const { customerId, subscriptionId, mandateId } = await subscribe(t, token);
    await billOn('2026-12-01');
    expect(await chargedAtProvider()).toEqual([mandateId]);
    t.clock.set('2026-12-05T09:00:00Z');
    const portal = await openPortal(t, token, customerId);
    expect((await portal.post(`/portal/subscriptions/${subscriptionId}/cancel`)).status).toBe(303);
    const cancelled = await t.ctx.db('subscriptions').where({ id: subscriptionId }).first();
    expect(String(cancelled.cancel_at).slice(0, 10)).toBe('2027-01-01');
    for (const date of ['2026-12-20', '2027-01-01', '2027-02-01', '2027-03-01']) await billOn(date);
    expect(await chargedAtProvider()).toEqual([mandateId]);
    expect(await t.ctx.db('subscriptions').where({ id: subscriptionId }).first()).toMatchObject({ status: 'cancelled' });
  });

  it(
    'When the payment method is changed in the portal and the 0.01 is paid at the sandbox, then every subscription is charged ' +
      'on the new mandate from the next charge on, and the old mandate is revoked',
    async () => {
      const { customerId, subscriptionId, mandateId } = await subscribe(t, token);
      const tea = await t.as(token).post('/api/v2/subscriptions', {
        name: 'Tea box',
        customer_id: customerId,
        provider_profile_id: 'pfl_test123456',
        provider_mandate_id: mandateId,
        start_date: '2026-12-01',
        rules: [{ amount: 7.5, interval: 'month', interval_amount: 1 }],
      });
      expect(tea.status).toBe(201);
      const portal = await openPortal(t, token, customerId);
      const started = await portal.post('/portal/payment-method', { subscription: 'all' });
      expect(started.status).toBe(303);
      const pay = await request(t.app).post(started.headers.location).type('form').send({});
      const providerPaymentId = /\/sandbox\/checkout\/([^/?]+)/.exec(pay.headers.location)?.[1] as string;
      expect((await request(t.app).post(`/sandbox/checkout/${providerPaymentId}`).type('form').send({ status: 'paid' })).status).toBe(303);
      await t.ctx.background.idle();
      const firstPayment = await t.ctx.db('sandbox_payments').where({ id: providerPaymentId }).first();
      expect(firstPayment).toMatchObject({ sequence_type: 'first', amount: 1, status: 'paid' });
      const newMandate = firstPayment.mandate_id as string;
      expect(newMandate).not.toBe(mandateId);

      const used = await t.ctx.db('subscriptions').whereIn('id', [subscriptionId, tea.body.id]).pluck('provider_mandate_id');
      expect(used).toEqual([newMandate, newMandate]);
      expect(await t.ctx.db('sandbox_mandates').where({ id: mandateId }).first()).toMatchObject({ status: 'invalid' });

      await billOn('2026-12-01');
      expect(await chargedAtProvider()).toEqual([newMandate, newMandate]);
    },
  );
});

import request from 'supertest';
import { randomBase62 } from '../../src/ids';
import { setProviderSettings } from '../../src/modules/accounts/providerSettings';
import { TEST_DATABASES } from '../support/databases';
import { startReceiver } from '../support/receiver';
import { seedCustomer } from '../support/seed';
import { useTestApp, TEST_PUBLIC_URL } from '../support/testApp';
import { guardMollieNetwork, mollie, mollieFixture, mollieListsMethods, TEST_MOLLIE_KEY, type MollieBody } from '../support/mollieNock';

guardMollieNetwork();

describe.each(TEST_DATABASES)('the Mollie webhook flow on %s', (kind) => {
  const t = useTestApp(kind);

  /** An account on Mollie with one customer, and a payment created through our API (Mollie answers open). */
  async function openPaymentAtMollie(extra: Record<string, unknown> = {}) {
    const name = `Mollie Shop ${randomBase62(8)}`;
    const { accountId, token } = await t.newAccount(name);
    await setProviderSettings(t.ctx, name, { mollieApiKey: TEST_MOLLIE_KEY, allowLive: false });
    const publicRef = String((await t.ctx.db('accounts').where({ id: accountId }).first('public_ref')).public_ref);
    await seedCustomer(t.ctx.db, accountId, { provider_customer_id: 'cst_8wmqcHMN4U' });
    const trId = `tr_${randomBase62(10)}`;
    const sent: MollieBody[] = [];
    mollie()
      .post('/v2/payments')
      .reply((_uri, body) => {
        sent.push(body as MollieBody);
        return [201, mollieFixture('payment-open', { id: trId })];
      });
    mollieListsMethods();
    const created = await t.as(token).post('/api/v2/payments', {
      amount: 12.5,
      currency: 'EUR',
      provider_customer_id: 'cst_8wmqcHMN4U',
      description: 'Order 12345',
      redirect_url: 'https://webshop.example.org/order/12345/',
      ...extra,
    });
    expect(created.status).toBe(201);
    // Mollie is told where to report changes: our webhook, with the account's opaque reference.
    expect(sent[0]?.webhookUrl).toBe(`${TEST_PUBLIC_URL}/webhooks/mollie?account=${publicRef}`);
    return { token, publicRef, trId, paymentId: String(created.body.id) };
  }

  /** Mollie calls our webhook; we fetch the payment from Mollie, which answers with `fixture`. */
  async function mollieReports(publicRef: string, trId: string, fixture: string) {
    mollie()
      .get(`/v2/payments/${trId}`)
      .reply(200, mollieFixture(fixture, { id: trId }));
    const res = await request(t.app).post(`/webhooks/mollie?account=${publicRef}`).type('form').send(`id=${trId}`);
    expect(res.status).toBe(200);
    await t.ctx.background.idle();
  }

  const read = async (token: string, paymentId: string) => (await t.as(token).get(`/api/v2/payments/${paymentId}`)).body;
  const statuses = (payment: { status_history: Array<{ status: string }> }) => payment.status_history.map((change) => change.status);

  it.each([
    ['payment-paid', 'paid'],
    ['payment-expired', 'expired'],
    ['payment-canceled', 'canceled'],
  ])('When Mollie reports %s, then the payment becomes %s with its history', async (fixture, status) => {
    const { token, publicRef, trId, paymentId } = await openPaymentAtMollie();
    await mollieReports(publicRef, trId, fixture);
    const payment = await read(token, paymentId);
    expect(payment.status).toBe(status);
    expect(statuses(payment)).toEqual(['open', status]);
  });

  it('When Mollie reports a failed SEPA payment, then the payment is failed with the bank reason', async () => {
    const { token, publicRef, trId, paymentId } = await openPaymentAtMollie();
    await mollieReports(publicRef, trId, 'payment-failed-sepa');
    const payment = await read(token, paymentId);
    expect(payment.status).toBe('failed');
    const fixture = mollieFixture('payment-failed-sepa') as { details: { bankReasonCode: string; bankReason: string } };
    expect(payment).toMatchObject({ failure_code: fixture.details.bankReasonCode, failure_reason: fixture.details.bankReason });
  });

  it('When the same webhook arrives twice, then the payment is fetched twice but changes once', async () => {
    const { token, publicRef, trId, paymentId } = await openPaymentAtMollie();
    await mollieReports(publicRef, trId, 'payment-paid');
    await mollieReports(publicRef, trId, 'payment-paid');
    expect(statuses(await read(token, paymentId))).toEqual(['open', 'paid']);
  });

  it('When a late "expired" arrives after "paid", then the payment stays paid', async () => {
    const { token, publicRef, trId, paymentId } = await openPaymentAtMollie();
    await mollieReports(publicRef, trId, 'payment-paid');
    await mollieReports(publicRef, trId, 'payment-expired');
    const payment = await read(token, paymentId);
    expect(payment.status).toBe('paid');
    expect(statuses(payment)).toEqual(['open', 'paid']);
  });

  it('When a paid payment is later charged back, then it moves on to charged_back', async () => {
    const { token, publicRef, trId, paymentId } = await openPaymentAtMollie();
    await mollieReports(publicRef, trId, 'payment-paid');
    await mollieReports(publicRef, trId, 'payment-charged-back');
    expect(statuses(await read(token, paymentId))).toEqual(['open', 'paid', 'charged_back']);
  });

  it(
    'When the id is unknown and no payment of the account awaits its provider payment, then it answers 200 and Mollie is not even ' +
      'asked',
    async () => {
      const { publicRef } = await openPaymentAtMollie();
      // No interceptor for this id: the network guard fails the test if we call Mollie.
      const res = await request(t.app).post(`/webhooks/mollie?account=${publicRef}`).type('form').send('id=tr_madeUp00000');
      expect(res.status).toBe(200);
      await t.ctx.background.idle();
      const [call] = await t.ctx.db('provider_webhook_calls').where({ resource_id: 'tr_madeUp00000' });
      expect(call.processed_at).not.toBeNull();
    },
  );

  it(
    'When the id is unknown here and at Mollie while a payment awaits its answer, then it answers 200, asks Mollie once and changes ' +
      'nothing',
    async () => {
      const { publicRef } = await openPaymentAtMollie();
      // A payment whose creation answer was lost is known here only by our id in its metadata: then an unknown id may be it.
      const accountId = String((await t.ctx.db('accounts').where({ public_ref: publicRef }).first('id')).id);
      await t.ctx.db('payments').where({ account_id: accountId }).update({ status: 'creating', provider_payment_id: null });
      mollie()
        .get('/v2/payments/tr_unknown0000')
        .reply(404, { status: 404, title: 'Not Found', detail: 'No payment exists with token tr_unknown0000.' });
      const res = await request(t.app).post(`/webhooks/mollie?account=${publicRef}`).type('form').send('id=tr_unknown0000');
      expect(res.status).toBe(200);
      await t.ctx.background.idle();
      // Done with: not retried for 26 hours.
      const [call] = await t.ctx.db('provider_webhook_calls').where({ resource_id: 'tr_unknown0000' });
      expect(call).toMatchObject({ attempts: 1, next_attempt_at: null, gave_up_at: null });
      expect(call.processed_at).not.toBeNull();
    },
  );

  it('When Mollie reports a payment that is not ours while one of ours awaits its answer, then nothing changes', async () => {
    const { token, publicRef, paymentId } = await openPaymentAtMollie();
    await t.ctx.db('payments').where({ id: paymentId }).update({ status: 'creating', provider_payment_id: null });
    mollie()
      .get('/v2/payments/tr_someoneElse1')
      .reply(200, mollieFixture('payment-paid', { id: 'tr_someoneElse1', metadata: null }));
    await request(t.app).post(`/webhooks/mollie?account=${publicRef}`).type('form').send('id=tr_someoneElse1');
    await t.ctx.background.idle();
    expect((await read(token, paymentId)).status).toBe('creating');
  });

  it('When the payment has a webhook_url, then the client receives the signed event after Mollie reports paid', async () => {
    const receiver = await startReceiver([200]);
    try {
      const { publicRef, trId, paymentId } = await openPaymentAtMollie({ webhook_url: receiver.url });
      await mollieReports(publicRef, trId, 'payment-paid');
      expect(receiver.calls).toHaveLength(1);
      expect(JSON.parse(receiver.calls[0]?.body ?? '')).toEqual({ id: paymentId, event: 'payment.paid', status: 'paid' });
      expect(String(receiver.calls[0]?.headers['x-signature'])).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    } finally {
      await receiver.close();
    }
  });
});

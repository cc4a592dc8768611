import request from 'supertest';
import type { ProviderRegistry } from '../../src/providers';
import type { PaymentProvider } from '../../src/providers/types';
import { processDueWebhookCalls } from '../../src/modules/payments/webhookCalls';
import { TEST_DATABASES } from '../support/databases';
import { useTestApp } from '../support/testApp';

describe.each(TEST_DATABASES)('the provider webhook on %s', (kind) => {
  const t = useTestApp(kind, { perTest: true });
  let token: string;
  let accountId: string;
  let publicRef: string;
  let providerCustomerId: string;

  beforeEach(async () => {
    ({ token, accountId } = await t.newAccount());
    publicRef = (await t.ctx.db('accounts').where({ id: accountId }).first<{ public_ref: string }>('public_ref'))?.public_ref ?? '';
    const customer = await t.as(token).post('/api/v2/customers', { first_name: 'Piet', last_name: 'Bakker', email: 'piet@example.nl' });
    providerCustomerId = customer.body.provider_customer_id;
  });

  async function newPayment(): Promise<{ id: string; provider_payment_id: string }> {
    const res = await t.as(token).post('/api/v2/payments', {
      amount: 10,
      currency: 'EUR',
      provider_customer_id: providerCustomerId,
      description: 'Order 5',
      redirect_url: 'https://shop.example/thanks',
    });
    return res.body;
  }

  /** What happens at the provider's side; then the provider calls us. */
  const setProviderStatus = (providerPaymentId: string, status: string) =>
    t.ctx
      .db('sandbox_payments')
      .where({ id: providerPaymentId })
      .update({ status, paid_at: status === 'paid' ? '2026-11-21 10:00:00' : null });

  async function callWebhook(providerPaymentId: string, ref = publicRef) {
    const res = await request(t.app)
      .post(`/webhooks/mollie?account=${encodeURIComponent(ref)}`)
      .type('form')
      .send({ id: providerPaymentId });
    await t.ctx.background.idle();
    return res;
  }

  const statusHistory = async (paymentId: string) =>
    (await t.as(token).get(`/api/v2/payments/${paymentId}`)).body.status_history.map((change: { status: string }) => change.status);

  it.each(['paid', 'failed', 'expired', 'canceled'])(
    'When the provider reports %s, then the payment takes it and keeps its history',
    async (status) => {
      const payment = await newPayment();
      await setProviderStatus(payment.provider_payment_id, status);
      const res = await callWebhook(payment.provider_payment_id);
      expect(res.status).toBe(200);
      const read = await t.as(token).get(`/api/v2/payments/${payment.id}`);
      expect(read.body.status).toBe(status);
      expect(read.body.status_history.map((change: { status: string }) => change.status)).toEqual(['open', status]);
      const calls = await t.ctx.db('provider_webhook_calls').where({ account_id: accountId, resource_id: payment.provider_payment_id });
      expect(calls).toHaveLength(1);
      expect(calls[0].processed_at).not.toBeNull();
    },
  );

  it('When the same webhook arrives twice, then the second changes nothing', async () => {
    const payment = await newPayment();
    await setProviderStatus(payment.provider_payment_id, 'paid');
    await callWebhook(payment.provider_payment_id);
    await callWebhook(payment.provider_payment_id);
    expect(await statusHistory(payment.id)).toEqual(['open', 'paid']);
  });

  it('When a late "expired" arrives after "paid", then the payment stays paid', async () => {
    const payment = await newPayment();
    await setProviderStatus(payment.provider_payment_id, 'paid');
    await callWebhook(payment.provider_payment_id);
    await setProviderStatus(payment.provider_payment_id, 'expired');
    await callWebhook(payment.provider_payment_id);
    const read = await t.as(token).get(`/api/v2/payments/${payment.id}`);
    expect(read.body.status).toBe('paid');
    expect(read.body.status_history.map((change: { status: string }) => change.status)).toEqual(['open', 'paid']);
  });

  it(
    'When the id is unknown, or not a payment id, or the account reference is unknown, then it answers 200 and changes ' + 'nothing',
    async () => {
      const payment = await newPayment();
      const before = await t.ctx.db('payments').select('id', 'status', 'updated_at');
      expect((await callWebhook('tr_unknown1234')).status).toBe(200);
      expect((await callWebhook('sub_notapayment')).status).toBe(200);
      expect((await callWebhook(payment.provider_payment_id, 'no-such-account')).status).toBe(200);
      const empty = await request(t.app).post(`/webhooks/mollie?account=${publicRef}`).type('form').send({});
      expect(empty.status).toBe(200);
      expect(await t.ctx.db('payments').select('id', 'status', 'updated_at')).toEqual(before);
      // Only the well-formed id of a known account is kept (and processed to no effect).
      expect((await t.ctx.db('provider_webhook_calls').select('resource_id')).map((row) => row.resource_id)).toEqual(['tr_unknown1234']);
    },
  );

  it('When the payment belongs to another account, then a call on this account’s reference changes nothing', async () => {
    const payment = await newPayment();
    await setProviderStatus(payment.provider_payment_id, 'paid');
    const other = await t.newAccount();
    const otherRef =
      (await t.ctx.db('accounts').where({ id: other.accountId }).first<{ public_ref: string }>('public_ref'))?.public_ref ?? '';
    await callWebhook(payment.provider_payment_id, otherRef);
    expect((await t.as(token).get(`/api/v2/payments/${payment.id}`)).body.status).toBe('open');
  });

  it('When processing is slow, then the answer does not wait for it', async () => {
    const payment = await newPayment();
    await setProviderStatus(payment.provider_payment_id, 'paid');
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const real: ProviderRegistry = t.ctx.providers;
    t.ctx.providers = {
      forAccount: async (account) => {
        const provider = await real.forAccount(account);
        const slow: PaymentProvider = Object.create(provider) as PaymentProvider;
        slow.getPayment = async (id) => {
          await gate;
          return provider.getPayment(id);
        };
        return slow;
      },
    };
    const res = await request(t.app).post(`/webhooks/mollie?account=${publicRef}`).type('form').send({ id: payment.provider_payment_id });
    expect(res.status).toBe(200);
    expect((await t.ctx.db('payments').where({ id: payment.id }).first()).status).toBe('open');
    release();
    await t.ctx.background.idle();
    t.ctx.providers = real;
    expect((await t.ctx.db('payments').where({ id: payment.id }).first()).status).toBe('paid');
  });

  it('When processing fails, then the call is kept and the job processes it later', async () => {
    const payment = await newPayment();
    await setProviderStatus(payment.provider_payment_id, 'paid');
    const real = t.ctx.providers;
    t.ctx.providers = {
      forAccount: async () => {
        throw new Error('provider down');
      },
    };
    await callWebhook(payment.provider_payment_id);
    t.ctx.providers = real;
    const [call] = await t.ctx.db('provider_webhook_calls').where({ resource_id: payment.provider_payment_id });
    expect(call).toMatchObject({ processed_at: null, attempts: 1, last_error: 'provider down' });

    const noAbort = new AbortController().signal;
    expect(await processDueWebhookCalls(t.ctx, noAbort)).toEqual({ processed: 0, failed: 0 }); // not due before its backoff
    t.clock.advance(2 * 60 * 1000);
    expect(await processDueWebhookCalls(t.ctx, noAbort)).toEqual({ processed: 1, failed: 0 });
    expect((await t.as(token).get(`/api/v2/payments/${payment.id}`)).body.status).toBe('paid');
  });
});

import request from 'supertest';
import { deliverDueEvents } from '../../src/events/delivery';
import { TEST_DATABASES } from '../support/databases';
import { startReceiver } from '../support/receiver';
import { createTestApp, type TestApp } from '../support/testApp';

/** SANDBOX=on keeps the sandbox provider in production, so payments can be made and paid here. */
const PRODUCTION = { NODE_ENV: 'production', SANDBOX: 'on' };

describe.each(TEST_DATABASES)('events to a webhook_url on our own network, in production, on %s', (kind) => {
  let t: TestApp;
  let token: string;
  const noAbort = new AbortController().signal;

  async function startApp(env: Record<string, string>): Promise<void> {
    t = await createTestApp(kind, { env });
    ({ token } = await t.newAccount());
  }
  afterEach(() => t.close());

  /** A payment with a webhook_url, paid by the payer on the sandbox checkout (the first attempt runs at once). */
  async function payWithWebhook(webhookUrl: string): Promise<string> {
    const customer = await t.as(token).post('/api/v2/customers', { first_name: 'Piet', last_name: 'Bakker', email: 'piet@example.nl' });
    const created = await t.as(token).post('/api/v2/payments', {
      amount: 25,
      currency: 'EUR',
      provider_customer_id: customer.body.provider_customer_id,
      description: 'Order 77',
      redirect_url: 'https://shop.example/thanks',
      webhook_url: webhookUrl,
    });
    expect(created.status).toBe(201);
    await request(t.app).post(new URL(created.body.provider_checkout_url).pathname).type('form').send({ status: 'paid' });
    await t.ctx.background.idle();
    return created.body.id;
  }

  const deliveriesOf = async (paymentId: string) => (await t.as(token).get(`/api/v2/payments/${paymentId}`)).body.webhook_deliveries;

  it(
    'When the webhook_url is on 127.0.0.1, then it is never called, the event retries later and the client sees only "address not ' +
      'allowed"',
    async () => {
      await startApp(PRODUCTION);
      const receiver = await startReceiver([200]);
      try {
        const paymentId = await payWithWebhook(receiver.url);
        const [first] = await deliveriesOf(paymentId);
        expect(first).toMatchObject({
          status: 'pending',
          attempts: 1,
          last_status_code: null,
          last_error: 'address not allowed',
          delivered_at: null,
        });
        expect(first.next_attempt_at).toEqual(expect.any(String));

        t.clock.advance(30_000);
        expect(await deliverDueEvents(t.ctx, noAbort)).toEqual({ processed: 1, failed: 1 });
        const [second] = await deliveriesOf(paymentId);
        expect(second).toMatchObject({ status: 'pending', attempts: 2, last_error: 'address not allowed' });
        expect(receiver.calls).toHaveLength(0);
        // The cause is in our log, never in what the client reads.
        expect(t.logs.lines.some((line) => line.includes('webhook event delivery failed') && line.includes('address 127.0.0.1'))).toBe(
          true,
        );
        expect(JSON.stringify(await deliveriesOf(paymentId))).not.toContain(String(receiver.port));
      } finally {
        await receiver.close();
      }
    },
  );

  it(
    'When the webhook_url names a host that resolves to loopback (localhost), then it is refused after resolving and never ' + 'called',
    async () => {
      await startApp(PRODUCTION);
      const receiver = await startReceiver([200]);
      try {
        const paymentId = await payWithWebhook(`http://localhost:${receiver.port}/hooks/payments`);
        expect(await deliveriesOf(paymentId)).toEqual([
          expect.objectContaining({ status: 'pending', attempts: 1, last_error: 'address not allowed' }),
        ]);
        expect(receiver.calls).toHaveLength(0);
        expect(t.logs.lines.some((line) => line.includes('localhost resolves to'))).toBe(true);
      } finally {
        await receiver.close();
      }
    },
  );

  it.each(['http://[::1]:8080/hooks', 'http://169.254.169.254/latest/meta-data/'])(
    'When the webhook_url is the literal %s, then the attempt fails as "address not allowed"',
    async (webhookUrl) => {
      await startApp(PRODUCTION);
      const paymentId = await payWithWebhook(webhookUrl);
      expect(await deliveriesOf(paymentId)).toEqual([
        expect.objectContaining({ attempts: 1, last_status_code: null, last_error: 'address not allowed' }),
      ]);
    },
  );

  it('When the operator set OUTBOUND_ALLOW_PRIVATE=on, then an event to loopback is delivered in production too', async () => {
    await startApp({ ...PRODUCTION, OUTBOUND_ALLOW_PRIVATE: 'on' });
    const receiver = await startReceiver([200]);
    try {
      const paymentId = await payWithWebhook(receiver.url);
      expect(receiver.calls).toHaveLength(1);
      expect(JSON.parse(receiver.calls[0]?.body ?? '')).toEqual({ id: paymentId, event: 'payment.paid', status: 'paid' });
      expect(await deliveriesOf(paymentId)).toEqual([
        expect.objectContaining({ status: 'delivered', attempts: 1, last_status_code: 200, last_error: null }),
      ]);
    } finally {
      await receiver.close();
    }
  });
});

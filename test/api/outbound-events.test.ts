import request from 'supertest';
import { webhookSecretOf } from '../../src/events/secret';
import { deliverDueEvents } from '../../src/events/delivery';
import { verifySignature } from '../../src/events/signature';
import { TEST_DATABASES } from '../support/databases';
import { startReceiver } from '../support/receiver';
import { useTestApp } from '../support/testApp';

describe.each(TEST_DATABASES)('events to the client webhook_url on %s', (kind) => {
  const t = useTestApp(kind, { perTest: true });
  let token: string;
  let accountId: string;
  let providerCustomerId: string;
  const noAbort = new AbortController().signal;

  beforeEach(async () => {
    ({ token, accountId } = await t.newAccount());
    const customer = await t.as(token).post('/api/v2/customers', { first_name: 'Piet', last_name: 'Bakker', email: 'piet@example.nl' });
    providerCustomerId = customer.body.provider_customer_id;
  });

  /** A payment with a webhook_url, paid by the payer on the sandbox checkout. */
  async function payWithWebhook(webhookUrl: string, outcome = 'paid'): Promise<string> {
    const created = await t.as(token).post('/api/v2/payments', {
      amount: 25,
      currency: 'EUR',
      provider_customer_id: providerCustomerId,
      description: 'Order 77',
      redirect_url: 'https://shop.example/thanks',
      webhook_url: webhookUrl,
    });
    expect(created.status).toBe(201);
    await request(t.app).post(new URL(created.body.provider_checkout_url).pathname).type('form').send({ status: outcome });
    await t.ctx.background.idle();
    return created.body.id;
  }

  const runDeliveryJob = async () => {
    const result = await deliverDueEvents(t.ctx, noAbort);
    await t.ctx.background.idle();
    return result;
  };

  it(
    'When the receiver fails twice and then answers 200, then it gets the event exactly once successfully, signed, and no ' + 'more',
    async () => {
      const receiver = await startReceiver([500, 503, 200]);
      try {
        const paymentId = await payWithWebhook(receiver.url);
        expect(receiver.calls).toHaveLength(1); // the immediate attempt, answered 500

        expect(await runDeliveryJob()).toEqual({ processed: 0, failed: 0 }); // not due before its backoff
        t.clock.advance(30_000);
        expect(await runDeliveryJob()).toEqual({ processed: 1, failed: 1 });
        t.clock.advance(60_000);
        expect(await runDeliveryJob()).toEqual({ processed: 1, failed: 0 });
        t.clock.advance(24 * 60 * 60 * 1000);
        expect(await runDeliveryJob()).toEqual({ processed: 0, failed: 0 });

        expect(receiver.calls.map((call) => call.answeredWith)).toEqual([500, 503, 200]);
        const secret = await webhookSecretOf(t.ctx, accountId);
        expect(secret).toMatch(/^whsec_[0-9A-Za-z]{40}$/);
        for (const call of receiver.calls) {
          expect(JSON.parse(call.body)).toEqual({ id: paymentId, event: 'payment.paid', status: 'paid' });
          expect(call.headers['content-type']).toBe('application/json');
          const signature = String(call.headers['x-signature']);
          expect(signature).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
          const signedAt = Number(/t=(\d+)/.exec(signature)?.[1]);
          expect(verifySignature(secret, call.body, signature, signedAt)).toBe(true);
          expect(verifySignature('whsec_wrong', call.body, signature, signedAt)).toBe(false);
          expect(verifySignature(secret, call.body.replace('paid', 'PAID'), signature, signedAt)).toBe(false);
        }
        expect(new Set(receiver.calls.map((call) => call.headers['x-event-id'])).size).toBe(1);

        const read = await t.as(token).get(`/api/v2/payments/${paymentId}`);
        expect(read.body.webhook_deliveries).toEqual([
          expect.objectContaining({
            event: 'payment.paid',
            status: 'delivered',
            attempts: 3,
            last_status_code: 200,
            last_error: null,
            next_attempt_at: null,
          }),
        ]);
        expect(read.body.webhook_deliveries[0].id).toMatch(/^evt_/);
      } finally {
        await receiver.close();
      }
    },
  );

  it('When the service restarts in the middle of the backoff, then the event is still delivered afterwards', async () => {
    const receiver = await startReceiver([500, 200]);
    try {
      const paymentId = await payWithWebhook(receiver.url);
      expect(receiver.calls).toHaveLength(1);
      await t.restart();
      t.clock.advance(30_000);
      expect(await runDeliveryJob()).toEqual({ processed: 1, failed: 0 });
      expect(receiver.calls.map((call) => call.answeredWith)).toEqual([500, 200]);
      expect((await t.as(token).get(`/api/v2/payments/${paymentId}`)).body.webhook_deliveries[0].status).toBe('delivered');
    } finally {
      await receiver.close();
    }
  });

  it('When the receiver keeps failing for 26 hours, then the event is dead, logged and shown on the payment', async () => {
    const receiver = await startReceiver([500]);
    try {
      const paymentId = await payWithWebhook(receiver.url);
      for (let hour = 0; hour <= 27; hour += 1) {
        t.clock.advance(60 * 60 * 1000);
        await runDeliveryJob();
      }
      const read = await t.as(token).get(`/api/v2/payments/${paymentId}`);
      const [delivery] = read.body.webhook_deliveries;
      expect(delivery).toMatchObject({
        status: 'dead',
        last_status_code: 500,
        last_error: 'HTTP 500',
        next_attempt_at: null,
        delivered_at: null,
      });
      expect(delivery.attempts).toBe(receiver.calls.length);
      expect(t.logs.lines.some((line) => line.includes('webhook event dead') && line.includes(paymentId))).toBe(true);
      const callsWhenDead = receiver.calls.length;
      t.clock.advance(60 * 60 * 1000);
      await runDeliveryJob();
      expect(receiver.calls).toHaveLength(callsWhenDead);
    } finally {
      await receiver.close();
    }
  });

  it(
    'When the receiver cannot be reached, then the attempt fails, is retried like an error answer, and the client sees no socket ' +
      'detail',
    async () => {
      const receiver = await startReceiver([200]);
      const unreachable = receiver.url;
      await receiver.close();
      const paymentId = await payWithWebhook(unreachable);
      const read = await t.as(token).get(`/api/v2/payments/${paymentId}`);
      const [delivery] = read.body.webhook_deliveries;
      expect(delivery).toMatchObject({ status: 'pending', attempts: 1, last_status_code: null, last_error: 'could not connect' });
      expect(delivery.next_attempt_at).toEqual(expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/));
      // No port, address or errno: the answer must not be a port scanner of our network.
      const shown = JSON.stringify(read.body);
      expect(shown).not.toContain(String(receiver.port));
      expect(shown).not.toMatch(/ECONN|errno|127\.0\.0\.1:/i);
      expect(t.logs.lines.some((line) => line.includes('webhook event delivery failed') && line.includes('ECONNREFUSED'))).toBe(true);
    },
  );

  it('When the webhook_url is on loopback outside production (the default there), then it is delivered, by name too', async () => {
    const receiver = await startReceiver([200]);
    try {
      const paymentId = await payWithWebhook(`http://localhost:${receiver.port}/hooks/payments`);
      expect(receiver.calls).toHaveLength(1);
      expect((await t.as(token).get(`/api/v2/payments/${paymentId}`)).body.webhook_deliveries).toEqual([
        expect.objectContaining({ status: 'delivered', attempts: 1, last_status_code: 200, last_error: null }),
      ]);
    } finally {
      await receiver.close();
    }
  });

  it('When each status changes, then each change is one event; a payment without webhook_url sends none', async () => {
    const receiver = await startReceiver([200]);
    try {
      await payWithWebhook(receiver.url, 'failed');
      expect(receiver.calls.map((call) => JSON.parse(call.body).event)).toEqual(['payment.failed']);
      const withoutHook = await t.as(token).post('/api/v2/payments', {
        amount: 5,
        currency: 'EUR',
        provider_customer_id: providerCustomerId,
        description: 'No hook',
        redirect_url: 'https://shop.example/thanks',
      });
      await request(t.app).post(new URL(withoutHook.body.provider_checkout_url).pathname).type('form').send({ status: 'paid' });
      await t.ctx.background.idle();
      expect(await t.ctx.db('outbound_events').where({ payment_id: withoutHook.body.id }).count({ n: '*' })).toEqual([{ n: 0 }]);
      expect(receiver.calls).toHaveLength(1);
    } finally {
      await receiver.close();
    }
  });
});

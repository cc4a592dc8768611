import request from 'supertest';
import { webhookSecretOf } from '../../src/events/secret';
import { deliverDueEvents } from '../../src/events/delivery';
import { verifySignature } from '../../src/events/signature';
import { WooSimulator } from '../../fakes/woocommerce/simulator';
import { cli } from '../cli/runInMemory';
import { subscribe, type Subscribed } from '../support/billing';
import { inProcessWebhooks } from '../support/connectedStore';
import { TEST_DATABASES } from '../support/databases';
import { openPortal } from '../support/portal';
import { startReceiver } from '../support/receiver';
import { useTestApp } from '../support/testApp';

/**
 * The store plugin's callback for subscription events (docs/plugin.md, "Subscription e-mails"): a
 * store connected with a `callback_url` hears of cancellations, pauses, resumes and skips, signed,
 * with the event id in the signed body and no personal data; `cli accounts set-portal --mails`
 * decides whether the service queues its portal-* mail or the event tells the plugin to mail.
 */
describe.each(TEST_DATABASES)('subscription events to the store plugin on %s', (kind) => {
  const t = useTestApp(kind, { perTest: true });
  const noAbort = new AbortController().signal;
  let token: string;
  let accountId: string;
  let store: WooSimulator;

  beforeEach(async () => {
    ({ token, accountId } = await t.newAccount('Plugin Coffee'));
    store = new WooSimulator();
    store.transport = inProcessWebhooks(() => t.app);
    await store.start();
  });
  afterEach(async () => {
    await t.ctx.background.idle();
    await store.stop();
  });

  const connect = (callbackUrl?: string) =>
    t.as(token).post('/api/v2/shop', {
      url: store.url,
      consumer_key: store.consumerKey,
      consumer_secret: store.consumerSecret,
      ...(callbackUrl ? { callback_url: callbackUrl } : {}),
    });
  const mailsOf = async (customer: Subscribed) => {
    const { email } = await t.ctx.db('customers').where({ id: customer.customerId }).first('email');
    return (await t.ctx.db('outgoing_mails').where({ recipient: email }).orderBy('created_at')).map((mail) => mail.template);
  };
  const deliver = async () => {
    await deliverDueEvents(t.ctx, noAbort);
    await t.ctx.background.idle();
  };

  it(
    'When the customer cancels and pauses in the portal under the default (service), then the service queues its mails and the ' +
      'plugin gets each change signed with mail "service", the event id in the body, and no e-mail address',
    async () => {
      const receiver = await startReceiver([200]);
      try {
        expect((await connect(receiver.url)).status).toBe(200);
        const customer = await subscribe(t, token, { email: 'callback-1@example.nl' });
        const portal = await openPortal(t, token, customer.customerId, { locale: 'en' });
        expect((await portal.post(`/portal/subscriptions/${customer.subscriptionId}/pause`, { until: '2027-01-15' })).status).toBe(303);
        expect((await portal.post(`/portal/subscriptions/${customer.subscriptionId}/resume`)).status).toBe(303);
        expect((await portal.post(`/portal/subscriptions/${customer.subscriptionId}/cancel`, { reason: '' })).status).toBe(303);
        await deliver();

        expect(await mailsOf(customer)).toEqual(['portal-paused', 'portal-resumed', 'portal-cancelled']);
        const bodies = receiver.calls.map((call) => JSON.parse(call.body));
        expect(bodies).toEqual([
          {
            id: customer.subscriptionId,
            event: 'subscription.paused',
            event_id: expect.stringMatching(/^evt_/),
            mail: 'service',
            resume_at: '2027-01-15',
            via: 'portal',
          },
          {
            id: customer.subscriptionId,
            event: 'subscription.resumed',
            event_id: expect.stringMatching(/^evt_/),
            mail: 'service',
            via: 'portal',
          },
          {
            id: customer.subscriptionId,
            event: 'subscription.cancelled',
            event_id: expect.stringMatching(/^evt_/),
            mail: 'service',
            cancel_at: '2026-12-01',
            via: 'portal',
          },
        ]);
        const secret = await webhookSecretOf(t.ctx, accountId);
        for (const [index, call] of receiver.calls.entries()) {
          const signature = String(call.headers['x-signature']);
          expect(verifySignature(secret, call.body, signature, Number(/t=(\d+)/.exec(signature)?.[1]))).toBe(true);
          expect(call.headers['x-event-id']).toBe(bodies[index].event_id);
          expect(call.body).not.toContain('@');
        }
      } finally {
        await receiver.close();
      }
    },
  );

  it(
    'When the account leaves the mails to the store, then a portal cancel and an API skip queue no service mail and tell the ' +
      'plugin to mail (mail "store"); a store connected without the plugin gets no event and the service mails again',
    async () => {
      const receiver = await startReceiver([200]);
      try {
        expect((await connect(receiver.url)).status).toBe(200);
        const set = await cli(t.ctx, 'accounts', 'set-portal', '--account', 'Plugin Coffee', '--mails', 'store');
        expect(set.code).toBe(0);
        expect(set.out).toEqual([
          `Account "Plugin Coffee" leaves subscription mails to its store's plugin (the service mails when no plugin is connected)`,
        ]);
        expect((await cli(t.ctx, 'accounts', 'show', '--account', 'Plugin Coffee')).out).toContain(
          "subscription mails:   store (the store's plugin)",
        );
        const customer = await subscribe(t, token, { email: 'callback-2@example.nl' });
        const portal = await openPortal(t, token, customer.customerId, { locale: 'en' });
        expect((await t.as(token).post(`/api/v2/subscriptions/${customer.subscriptionId}/skip`, {})).status).toBe(200);
        expect((await portal.post(`/portal/subscriptions/${customer.subscriptionId}/cancel`, { reason: 'Moving' })).status).toBe(303);
        await deliver();

        expect(await mailsOf(customer)).toEqual([]);
        expect(receiver.calls.map((call) => JSON.parse(call.body))).toEqual([
          {
            id: customer.subscriptionId,
            event: 'subscription.skipped',
            event_id: expect.any(String),
            mail: 'store',
            skipped_date: '2026-12-01',
          },
          {
            id: customer.subscriptionId,
            event: 'subscription.cancelled',
            event_id: expect.any(String),
            mail: 'store',
            cancel_at: '2027-01-01',
            via: 'portal',
          },
        ]);

        // Connected again without a callback address (not by the plugin): nobody would hear, so the service mails.
        expect((await connect()).status).toBe(200);
        const other = await subscribe(t, token, { email: 'callback-3@example.nl' });
        const again = await openPortal(t, token, other.customerId, { locale: 'en' });
        expect((await again.post(`/portal/subscriptions/${other.subscriptionId}/pause`, { until: '2027-01-15' })).status).toBe(303);
        await deliver();
        expect(await mailsOf(other)).toEqual(['portal-paused']);
        expect(receiver.calls).toHaveLength(2);
      } finally {
        await receiver.close();
      }
    },
  );

  it(
    'When the customer changes the payment method in the portal with the mails left to the store, then the plugin hears of ' +
      'it once, naming the subscription it moved, and the service queues no mail',
    async () => {
      const receiver = await startReceiver([200]);
      try {
        expect((await connect(receiver.url)).status).toBe(200);
        expect((await cli(t.ctx, 'accounts', 'set-portal', '--account', 'Plugin Coffee', '--mails', 'store')).code).toBe(0);
        const customer = await subscribe(t, token, { email: 'callback-4@example.nl' });
        const portal = await openPortal(t, token, customer.customerId, { locale: 'en' });
        const started = await portal.post('/portal/payment-method', { subscription: customer.subscriptionId });
        const linkId = /^\/pay\/(lnk_\w+)$/.exec(started.headers.location)?.[1] as string;
        const pay = await request(t.app).post(`/pay/${linkId}`).type('form').send({});
        const providerPaymentId = /\/sandbox\/checkout\/([^/?]+)/.exec(pay.headers.location)?.[1] as string;
        expect((await request(t.app).post(`/sandbox/checkout/${providerPaymentId}`).type('form').send({ status: 'paid' })).status).toBe(
          303,
        );
        await t.ctx.background.idle();
        await deliver();

        expect(await mailsOf(customer)).toEqual([]);
        expect(receiver.calls.map((call) => JSON.parse(call.body))).toEqual([
          {
            id: customer.subscriptionId,
            event: 'subscription.method_changed',
            event_id: expect.any(String),
            mail: 'store',
            subscription_ids: [customer.subscriptionId],
            via: 'portal',
          },
        ]);
      } finally {
        await receiver.close();
      }
    },
  );

  it('When the plugin connects with a callback address that is not http(s), then 422 names the field', async () => {
    const res = await connect('ftp://shop.example/callback');
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.fields)).toEqual(['callback_url']);
    expect(await t.ctx.db('shops').where({ account_id: accountId })).toHaveLength(0);
  });
});

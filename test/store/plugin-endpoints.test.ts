import request from 'supertest';
import { randomBase62 } from '../../src/ids';
import { setProviderSettings } from '../../src/modules/accounts/providerSettings';
import { guardMollieNetwork, mollie, TEST_MOLLIE_KEY } from '../support/mollieNock';
import { connectedSimulatorStore } from '../support/connectedStore';
import { TEST_DATABASES } from '../support/databases';
import { useTestApp, TEST_PUBLIC_URL } from '../support/testApp';
import type { WooSimulator } from '../../fakes/woocommerce/simulator';

guardMollieNetwork();

/**
 * What the WordPress plugin asks of the service besides the spec's endpoints: a buyer's customer by
 * e-mail, the methods a checkout may offer, the signing secret when it connects the store, and one
 * store order as the service sees it (the order-screen box).
 */
describe.each(TEST_DATABASES)('the endpoints the plugin uses, on %s', (kind) => {
  const t = useTestApp(kind);

  describe('GET /api/v2/customers?email=', () => {
    it(
      'When a list is asked for one e-mail address, then only that account’s customers with exactly that address are answered, and ' +
        'the page links keep the filter',
      async () => {
        const { token } = await t.newAccount();
        const other = await t.newAccount();
        const make = (as: string, email: string) =>
          t.as(as).post('/api/v2/customers', { first_name: 'Anna', last_name: 'Bakker', email }).expect(201);
        const anna = (await make(token, 'anna@example.nl')).body;
        await make(token, 'bert@example.nl');
        await make(other.token, 'anna@example.nl');

        const res = await t.as(token).get('/api/v2/customers?email=anna%40example.nl&per_page=5');
        expect(res.status).toBe(200);
        expect(res.body.data.map((customer: { id: string }) => customer.id)).toEqual([anna.id]);
        expect(res.body.meta).toMatchObject({ total: 1, path: `${TEST_PUBLIC_URL}/api/v2/customers` });
        expect(res.body.links.first).toBe(`${TEST_PUBLIC_URL}/api/v2/customers?page=1&per_page=5&email=anna%40example.nl`);

        const none = await t.as(token).get('/api/v2/customers?email=nobody%40example.nl');
        expect(none.body).toMatchObject({ data: [], meta: { total: 0 } });
        const all = await t.as(token).get('/api/v2/customers');
        expect(all.body.meta.total).toBe(2);
      },
    );

    it('When the e-mail address is not one, then the answer is 422 naming the email parameter', async () => {
      const { token } = await t.newAccount();
      const res = await t.as(token).get('/api/v2/customers?email=not-an-address');
      expect(res.status).toBe(422);
      expect(Object.keys(res.body.fields)).toEqual(['email']);
    });
  });

  describe('GET /api/v2/methods', () => {
    it('When the account uses the sandbox, then the spec’s methods are answered without the ones Mollie no longer offers', async () => {
      const { token } = await t.newAccount();
      const res = await t.as(token).get('/api/v2/methods');
      expect(res.status).toBe(200);
      expect(res.body.data.map((method: { id: string }) => method.id)).toEqual([
        'ideal',
        'creditcard',
        'bancontact',
        'eps',
        'belfius',
        'kbc',
        'banktransfer',
      ]);
    });

    it(
      'When the account is on Mollie, then the methods enabled there are answered, in the spec’s order, without those the spec does ' +
        'not name',
      async () => {
        const name = `Mollie Shop ${randomBase62(8)}`;
        const { token } = await t.newAccount(name);
        await setProviderSettings(t.ctx, name, { mollieApiKey: TEST_MOLLIE_KEY, allowLive: false });
        const method = (id: string) => ({ resource: 'method', id, description: id, status: 'activated', image: {}, _links: {} });
        mollie()
          .get('/v2/methods')
          .reply(200, {
            count: 4,
            _embedded: { methods: [method('creditcard'), method('applepay'), method('ideal'), method('paypal')] },
            _links: {},
          });

        const res = await t.as(token).get('/api/v2/methods');
        expect(res.status).toBe(200);
        expect(res.body.data).toEqual([{ id: 'ideal' }, { id: 'creditcard' }]);
      },
    );

    it(
      'When a checkout that starts subscriptions asks for sequence_type=first on the sandbox, then only the methods that create a ' +
        'mandate are answered (no bank transfer), and oneoff answers the full list',
      async () => {
        const { token } = await t.newAccount();
        const first = await t.as(token).get('/api/v2/methods?sequence_type=first');
        expect(first.status).toBe(200);
        expect(first.body.data.map((method: { id: string }) => method.id)).toEqual([
          'ideal',
          'creditcard',
          'bancontact',
          'eps',
          'belfius',
          'kbc',
        ]);
        const oneoff = await t.as(token).get('/api/v2/methods?sequence_type=oneoff');
        expect(oneoff.body.data.map((method: { id: string }) => method.id)).toContain('banktransfer');
      },
    );

    it('When the account is on Mollie and sequence_type=first is asked, then Mollie is asked for its first-payment methods', async () => {
      const name = `Mollie Shop ${randomBase62(8)}`;
      const { token } = await t.newAccount(name);
      await setProviderSettings(t.ctx, name, { mollieApiKey: TEST_MOLLIE_KEY, allowLive: false });
      const method = (id: string) => ({ resource: 'method', id, description: id, status: 'activated', image: {}, _links: {} });
      mollie()
        .get('/v2/methods')
        .query({ sequenceType: 'first' })
        .reply(200, { count: 2, _embedded: { methods: [method('creditcard'), method('ideal')] }, _links: {} });

      const res = await t.as(token).get('/api/v2/methods?sequence_type=first');
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual([{ id: 'ideal' }, { id: 'creditcard' }]);
    });

    it('When sequence_type is neither first nor oneoff, then the answer is 422 naming it', async () => {
      const { token } = await t.newAccount();
      const res = await t.as(token).get('/api/v2/methods?sequence_type=recurring');
      expect(res.status).toBe(422);
      expect(Object.keys(res.body.fields)).toEqual(['sequence_type']);
    });

    it('When no token is sent, then the answer is 401', async () => {
      expect((await request(t.app).get('/api/v2/methods')).status).toBe(401);
    });
  });

  describe('the store connection and its orders', () => {
    let store: WooSimulator | undefined;
    afterEach(async () => {
      await t.ctx.background.idle();
      await store?.stop();
      store = undefined;
    });

    it(
      'When the store is connected, then the answer carries the secret that signs payment events, and reading the connection later ' +
        'does not',
      async () => {
        const { token } = await t.newAccount();
        store = await connectedSimulatorStore(t, token);
        const again = await t
          .as(token)
          .post('/api/v2/shop', { url: store.url, consumer_key: store.consumerKey, consumer_secret: store.consumerSecret });
        expect(again.body.event_signing_secret).toMatch(/^whsec_[A-Za-z0-9]{40}$/);
        const read = await t.as(token).get('/api/v2/shop');
        expect(read.status).toBe(200);
        expect(read.body).not.toHaveProperty('event_signing_secret');
        expect(JSON.stringify(read.body)).not.toContain(again.body.event_signing_secret);
      },
    );

    it(
      'When a store order has payments and started a subscription, then its view shows them, the checkout address only while ' +
        'payable; other accounts and unknown orders are 404',
      async () => {
        const { token } = await t.newAccount();
        const other = await t.newAccount();
        store = await connectedSimulatorStore(t, token);
        const productId = store.addSubscriptionProduct({ name: 'Coffee club', price: '12.00', period: 'month', length: '0' });
        const [shopOrderId] = store.addOrders(1, () => ({
          status: 'pending',
          total: '12.00',
          line_items: [{ id: 1, product_id: productId, quantity: 1, total: '12.00' }],
        }));
        const customer = (
          await t.as(token).post('/api/v2/customers', { first_name: 'Anna', last_name: 'Bakker', email: 'anna@example.nl' })
        ).body;
        const pay = () =>
          t.as(token).post('/api/v2/payments', {
            amount: 12,
            currency: 'EUR',
            provider_customer_id: customer.provider_customer_id,
            description: `Order ${shopOrderId}`,
            redirect_url: 'https://shop.example/checkout/order-received',
            shop_order_id: shopOrderId,
          });
        const view = () => t.as(token).get(`/api/v2/shop/orders/${shopOrderId}`);

        const first = (await pay()).body;
        const open = await view();
        expect(open.status).toBe(200);
        expect(open.body).toMatchObject({ shop_order_id: shopOrderId, order_status: 'unpaid', subscriptions: [], follow_ups: [] });
        expect(open.body.payments).toEqual([
          expect.objectContaining({ id: first.id, status: 'open', amount: '12.00', provider_checkout_url: first.provider_checkout_url }),
        ]);

        await request(t.app).post(`/sandbox/checkout/${first.provider_payment_id}`).type('form').send({ status: 'paid' }).expect(303);
        await t.ctx.background.idle();
        const paid = await view();
        expect(paid.body.order_status).toBe('paid');
        expect(paid.body.payments).toEqual([
          expect.objectContaining({ id: first.id, status: 'paid', provider_checkout_url: null, paid_at: expect.any(String) }),
        ]);
        expect(paid.body.subscriptions).toEqual([
          expect.objectContaining({
            name: expect.any(String),
            status: 'active',
            next_payment_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
            cancel_at: null,
          }),
        ]);
        // Cancelled at the end of its period (as the plugin's Cancel does): the box says the day it ends.
        const [started] = paid.body.subscriptions as Array<{ id: string; next_payment_at: string }>;
        const subscriptionId = started?.id as string;
        const nextDay = started?.next_payment_at as string;
        expect((await t.as(token).delete(`/api/v2/subscriptions/${subscriptionId}`).send({ cancel_at: nextDay })).status).toBe(200);
        expect((await view()).body.subscriptions).toEqual([
          expect.objectContaining({ id: subscriptionId, status: 'active', cancel_at: nextDay, next_payment_at: null }),
        ]);

        expect((await t.as(other.token).get(`/api/v2/shop/orders/${shopOrderId}`)).status).toBe(404);
        expect((await t.as(token).get('/api/v2/shop/orders/999999')).status).toBe(404);
        expect((await t.as(token).get('/api/v2/shop/orders/abc')).status).toBe(404);
      },
    );

    it(
      'When the store is disconnected (as `cli shops disconnect` does), then a payment for a store order answers 409 ' +
        'shop_not_connected, a plain payment is still made, the connection reads disconnected, and disconnecting again is 404',
      async () => {
        const { accountId, token } = await t.newAccount();
        store = await connectedSimulatorStore(t, token);
        const [shopOrderId] = store.addOrders(1, () => ({ status: 'pending', total: '12.00' }));
        const customer = (
          await t.as(token).post('/api/v2/customers', { first_name: 'Anna', last_name: 'Bakker', email: 'anna@example.nl' })
        ).body;
        const payment = {
          amount: 12,
          currency: 'EUR',
          provider_customer_id: customer.provider_customer_id,
          description: `Order ${shopOrderId}`,
          redirect_url: 'https://shop.example/checkout/order-received',
        };

        const disconnected = await t.as(token).delete('/api/v2/shop');
        expect(disconnected.status).toBe(200);
        expect(disconnected.body.status).toBe('disconnected');

        const refused = await t.as(token).post('/api/v2/payments', { ...payment, shop_order_id: shopOrderId });
        expect(refused.status).toBe(409);
        expect(refused.body).toMatchObject({
          status: 409,
          code: 'shop_not_connected',
          error: expect.stringContaining('POST /api/v2/shop'),
        });
        expect(await t.ctx.db('payments').where({ account_id: accountId })).toHaveLength(0);

        const plain = await t.as(token).post('/api/v2/payments', payment);
        expect(plain.status).toBe(201);
        expect(plain.body.status).toBe('open');
        expect((await t.as(token).get(`/api/v2/payments/${plain.body.id}`)).body.status).toBe('open');

        expect((await t.as(token).get('/api/v2/shop')).body.status).toBe('disconnected');
        expect((await t.as(token).post('/api/v2/sync/orders', {})).body.code).toBe('shop_not_connected');
        expect((await t.as(token).delete('/api/v2/shop')).status).toBe(404);
      },
    );
  });
});

import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { cli } from '../cli/runInMemory';
import { processDueWebhookCalls } from '../../src/modules/payments/webhookCalls';
import { TEST_DATABASES } from '../support/databases';
import { createTestApp, TEST_PUBLIC_URL, type TestApp } from '../support/testApp';
import { WooSimulator } from '../../fakes/woocommerce/simulator';

/**
 * The whole bridge over real HTTP on both sides: the service listens on loopback, the store is the
 * wc/v3 simulator (OAuth 1.0a, pagination headers, signed webhook deliveries), the service talks to
 * it through the real `@woocommerce/woocommerce-rest-api` library. Connect, sync, a webhook, a
 * checkout paid at the sandbox provider, a renewal charge that becomes a renewal order in the store.
 */
describe.each(TEST_DATABASES)('the WooCommerce bridge end to end on %s', (kind) => {
  let t: TestApp;
  let store: WooSimulator;
  let server: Server;
  let base: string;
  let token: string;

  beforeAll(async () => {
    t = await createTestApp(kind);
    ({ token } = await t.newAccount());
    server = t.app.listen(0, '127.0.0.1');
    await once(server, 'listening');
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    store = new WooSimulator();
    // The store's pings and deliveries to PUBLIC_URL reach the service listening here.
    store.route = { from: TEST_PUBLIC_URL, to: base };
    await store.start();
  });
  afterAll(async () => {
    await t.ctx.background.idle();
    await store.stop();
    await new Promise((resolve) => server.close(resolve));
    await t.close();
  });

  /** A call to the service over HTTP, as the plugin or the store admin makes it. */
  async function api(
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; body: Record<string, unknown> & { data?: Array<Record<string, unknown>> } }> {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: {
        Authorization: `Bearer ${token}`,
        Accept: 'application/json',
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : {} };
  }
  async function syncAndWait(what: 'products' | 'orders') {
    const started = await api('POST', `/api/v2/sync/${what}`, {});
    expect(started.status).toBe(202);
    await t.ctx.background.idle();
    return (await api('GET', `/api/v2/sync/runs/${String(started.body.id)}`)).body;
  }
  const deliver = (topic: string, resource: Record<string, unknown>) =>
    store.deliver(topic, resource, { via: { from: TEST_PUBLIC_URL, to: base } });

  it(
    'connects, syncs, takes a webhook, turns a checkout into a paid order with a subscription, and a renewal charge into a renewal ' +
      'order',
    async () => {
      // Connect: the keys are checked with one call and six webhooks registered.
      expect(
        (await api('POST', '/api/v2/shop', { url: store.url, consumer_key: store.consumerKey, consumer_secret: store.consumerSecret }))
          .status,
      ).toBe(200);
      expect(store.webhooks.size).toBe(6);

      // Sync: 120 simple products (two pages) and a subscription product.
      store.addProducts(120);
      const club = store.addSubscriptionProduct({ name: 'Coffee club', price: '12.50', period: 'month', length: '12' });
      expect(await syncAndWait('products')).toMatchObject({
        status: 'succeeded',
        progress: { pages_done: 2, pages_total: 2, created: 121 },
      });
      const pages = [await api('GET', '/api/v2/products?per_page=100&page=1'), await api('GET', '/api/v2/products?per_page=100&page=2')];
      const listed = pages.flatMap((page) => page.body.data ?? []);
      expect(listed).toHaveLength(121);
      expect(listed.find((product) => product.shop_product_id === club)).toMatchObject({
        name: 'Coffee club',
        type: 'subscription',
        interval: 'month',
        times: 12,
        shop_product_id: club,
      });

      // A webhook: the buyer's order at checkout, delivered signed over HTTP.
      const [shopOrderId] = store.addOrders(1, () => ({
        status: 'pending',
        total: '12.50',
        line_items: [{ id: 1, product_id: club, quantity: 1, total: '12.50' }],
      })) as [number];
      const delivered = await deliver('order.created', store.orders.get(shopOrderId) as Record<string, unknown>);
      expect(delivered).toBe(200);
      const orders = await api('GET', '/api/v2/orders');
      expect(orders.body.data).toEqual([expect.objectContaining({ shop_order_id: shopOrderId, status: 'unpaid', total_amount: '12.50' })]);

      // Checkout: the plugin makes the payment for the order; the buyer pays at the (sandbox) provider.
      const customer = await api('POST', '/api/v2/customers', { first_name: 'Anna', last_name: 'de Vries', email: 'anna@example.nl' });
      const payment = await api('POST', '/api/v2/payments', {
        amount: 12.5,
        currency: 'EUR',
        provider_customer_id: customer.body.provider_customer_id,
        description: `Order ${shopOrderId}`,
        redirect_url: `${store.url}/checkout/order-received/${shopOrderId}`,
        shop_order_id: shopOrderId,
      });
      expect(payment.status).toBe(201);
      const paid = await fetch(`${base}/sandbox/checkout/${String(payment.body.provider_payment_id)}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: 'status=paid',
        redirect: 'manual',
      });
      expect(paid.status).toBe(303);
      await t.ctx.background.idle();
      expect(store.orders.get(shopOrderId)).toMatchObject({ status: 'processing', transaction_id: payment.body.provider_payment_id });
      const subscriptions = await api('GET', '/api/v2/subscriptions');
      expect(subscriptions.body.data).toEqual([
        expect.objectContaining({ status: 'active', next_payment_at: '2026-12-21', next_amount: '12.50' }),
      ]);

      // The store reports the paid order back (order.updated): nothing changes, nothing duplicates.
      expect(await deliver('order.updated', store.orders.get(shopOrderId) as Record<string, unknown>)).toBe(200);

      // A month later the subscription is charged; the charge's renewal order appears in the store.
      t.clock.set('2026-12-21T06:00:00Z');
      expect((await cli(t.ctx, 'billing', 'run', '--date', '2026-12-21')).out[0]).toContain('1 charged');
      const charge = await t.ctx.db('payments').where({ purpose: 'charge' }).first();
      const publicRef = (await t.ctx.db('accounts').where({ id: charge.account_id }).first()).public_ref;
      expect(
        (
          await fetch(`${base}/webhooks/mollie?account=${publicRef}`, {
            method: 'POST',
            headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
            body: `id=${charge.provider_payment_id}`,
          })
        ).status,
      ).toBe(200);
      await processDueWebhookCalls(t.ctx, new AbortController().signal);
      await t.ctx.background.idle();

      const renewals = [...store.orders.values()].filter((order) => order.parent_id === shopOrderId);
      expect(renewals).toEqual([
        expect.objectContaining({ status: 'processing', total: '12.50', line_items: [expect.objectContaining({ product_id: club })] }),
      ]);
      const all = await api('GET', '/api/v2/orders');
      const renewal = all.body.data?.find((order) => order.shop_order_id === renewals[0]?.id);
      expect(renewal).toMatchObject({
        status: 'paid',
        total_amount: '12.50',
        products: [expect.objectContaining({ next_order: '2027-01-21' })],
      });

      // The renewal order's own webhook and a full order sync find it ours: still two orders here.
      expect(await deliver('order.created', renewals[0] as Record<string, unknown>)).toBe(200);
      expect(await syncAndWait('orders')).toMatchObject({ status: 'succeeded', progress: { created: 0 } });
      expect((await api('GET', '/api/v2/orders')).body.data).toHaveLength(2);
    },
  );
});

import request from 'supertest';
import { encryptSecret } from '../../src/crypto/secrets';
import { TEST_DATABASES } from '../support/databases';
import { MEMORY_PLATFORM, MemoryStore, memoryStorePlatform } from '../support/memoryStorePlatform';
import { useTestApp } from '../support/testApp';

/**
 * A second store platform is one adapter: the tests' own in-memory store, registered beside
 * WooCommerce through ctx.platforms, drives the store module as WooCommerce does. Sandbox provider.
 */
describe.each(TEST_DATABASES)('a store platform of the tests’ own on %s', (kind) => {
  const t = useTestApp(kind);
  const store = new MemoryStore();
  let token: string;
  let accountId: string;
  let customer: { provider_customer_id: string };

  beforeAll(async () => {
    t.ctx.platforms.add(memoryStorePlatform(store));
    ({ token, accountId } = await t.newAccount());
    const now = '2026-11-21 10:00:00';
    // Connected as `POST /api/v2/shop` would, on the memory platform (the API connects WooCommerce stores).
    await t.ctx.db('shops').insert({
      id: `shp_memory${accountId.slice(-8)}`,
      account_id: accountId,
      platform: MEMORY_PLATFORM,
      url: 'memory://store',
      consumer_key: 'ck_memory',
      consumer_secret_encrypted: encryptSecret(t.ctx.config.appKey, 'cs_memory'),
      webhook_secret_encrypted: encryptSecret(t.ctx.config.appKey, 'wcsec_memory'),
      webhook_ids: null,
      webhooks_state: 'not_reachable',
      webhooks_error: null,
      status: 'connected',
      connected_at: now,
      created_at: now,
      updated_at: now,
    });
    customer = (await t.as(token).post('/api/v2/customers', { first_name: 'Anna', last_name: 'de Vries', email: 'anna@example.nl' })).body;
  });

  const coffee = () =>
    store.addProduct({ type: 'once', name: 'Coffee beans', amount: 750, interval: null, intervalValue: null, times: null, deleted: false });
  const pendingOrder = (productId: number) =>
    store.addOrder({
      status: 'unpaid',
      totalAmount: 1500,
      currency: 'EUR',
      firstName: 'Anna',
      lastName: 'de Vries',
      email: 'anna@example.nl',
      organizationName: null,
      phone: null,
      address: null,
      postalCode: null,
      city: null,
      country: 'NL',
      serviceOrderId: null,
      lines: [{ shopProductId: productId, quantity: 2, amount: 1500, subtotal: '15.00' }],
      paymentMethod: null,
      paymentMethodTitle: null,
      shippingLines: [],
      invoiceLines: [],
    });

  it('When an order of its store is paid at checkout, then the order is read through the platform and marked paid through it', async () => {
    const shopOrderId = pendingOrder(coffee());
    const res = await t.as(token).post('/api/v2/payments', {
      amount: 15,
      currency: 'EUR',
      provider_customer_id: customer.provider_customer_id,
      description: `Order ${shopOrderId}`,
      redirect_url: 'https://shop.example/checkout/order-received',
      shop_order_id: shopOrderId,
    });
    expect(res.status).toBe(201);
    const ourOrder = () => t.ctx.db('orders').where({ account_id: accountId, shop_order_id: shopOrderId }).first();
    expect(await ourOrder()).toMatchObject({ status: 'unpaid', order_number: `M-${shopOrderId}` });

    expect(
      (await request(t.app).post(`/sandbox/checkout/${res.body.provider_payment_id}`).type('form').send({ status: 'paid' })).status,
    ).toBe(303);
    await t.ctx.background.idle();

    expect((await ourOrder()).status).toBe('paid');
    expect(store.told).toContain(`paid ${shopOrderId} ${res.body.id}`);
    expect(store.orders.get(shopOrderId)?.status).toBe('paid');
    expect(await t.ctx.db('shop_tasks').where({ account_id: accountId })).toEqual([
      expect.objectContaining({ kind: 'paid', status: 'done' }),
    ]);
  });

  it('When its store is synced, then its products and orders come here through the platform', async () => {
    const productId = coffee();
    const shopOrderId = pendingOrder(productId);
    for (const what of ['products', 'orders']) {
      const started = await t.as(token).post(`/api/v2/sync/${what}`, {});
      expect(started.status).toBe(202);
      await t.ctx.background.idle();
      expect((await t.as(token).get(`/api/v2/sync/runs/${started.body.id}`)).body).toMatchObject({
        status: 'succeeded',
        progress: { failed: 0 },
      });
    }
    expect(await t.ctx.db('products').where({ account_id: accountId, shop_product_id: productId }).first()).toMatchObject({
      name: 'Coffee beans',
      amount: 750,
    });
    expect(await t.ctx.db('orders').where({ account_id: accountId, shop_order_id: shopOrderId }).first()).toMatchObject({
      status: 'unpaid',
      total_amount: 1500,
    });
  });

  it('When a delivery arrives at its webhook address, then the platform reads it (and refuses it: this store sends none)', async () => {
    const { public_ref: publicRef } = await t.ctx.db('accounts').where({ id: accountId }).first();
    const res = await request(t.app)
      .post(`/webhooks/${MEMORY_PLATFORM}/${publicRef}`)
      .set('Content-Type', 'application/json')
      .send('{"id":1}');
    expect(res.status).toBe(401);
    expect((await request(t.app).post(`/webhooks/woocommerce/${publicRef}`).send('{"id":1}')).status).toBe(404);
  });
});

import request from 'supertest';
import { TEST_DATABASES } from '../support/databases';
import { useTestApp, TEST_PUBLIC_URL } from '../support/testApp';
import { accountWithConnectedStore } from '../support/connectedStore';
import type { WooSimulator } from '../../fakes/woocommerce/simulator';

describe.each(TEST_DATABASES)('WooCommerce webhooks on %s', (kind) => {
  const t = useTestApp(kind, { perTest: true });
  let store: WooSimulator;
  let accountId: string;
  let token: string;

  beforeEach(async () => {
    ({ token, accountId, store } = await accountWithConnectedStore(t));
  });
  afterEach(async () => {
    await store.stop();
  });

  /** Posts what the store would deliver to the service (the registered address, in-process). */
  const post = ({ url, headers, body }: { url: string; headers: Record<string, string>; body: string }) => {
    let test = request(t.app).post(url.slice(TEST_PUBLIC_URL.length));
    for (const [name, value] of Object.entries(headers)) test = test.set(name, value);
    return test.send(body);
  };
  const product = (id: number, name = 'Coffee beans') => ({
    id,
    name,
    type: 'simple',
    status: 'publish',
    price: '7.50',
    regular_price: '7.50',
    meta_data: [],
  });
  const products = () => t.ctx.db('products').where({ account_id: accountId });

  it('When a new webhook pings (webhook_id=N, unsigned), then it answers 200 and stores nothing', async () => {
    const { url } = store.delivery('product.created', {});
    const res = await request(t.app).post(url.slice(TEST_PUBLIC_URL.length)).type('form').send('webhook_id=1234');
    expect(res.status).toBe(200);
    expect(await t.ctx.db('shop_webhook_deliveries')).toHaveLength(0);
  });

  it('When a product is delivered with a good signature, then it becomes a Product; a replayed delivery is applied once', async () => {
    const delivery = store.delivery('product.created', product(501), { deliveryId: 'd-1' });
    expect((await post(delivery)).body).toEqual({ status: 200, result: 'applied' });
    expect(await products()).toEqual([expect.objectContaining({ shop_product_id: 501, name: 'Coffee beans', amount: 750 })]);
    // The same delivery again (WooCommerce resends it, or a proxy repeats it): the same content, whatever its id.
    expect((await post(delivery)).body).toEqual({ status: 200, result: 'duplicate' });
    expect((await post(store.delivery('product.created', product(501), { deliveryId: 'd-9' }))).body.result).toBe('duplicate');
    expect(await products()).toHaveLength(1);
    expect((await post(store.delivery('product.updated', product(501, 'Renamed'), { deliveryId: 'd-2' }))).body.result).toBe('applied');
    expect((await products())[0].name).toBe('Renamed');
  });

  it('When products changed in the same second arrive under one delivery id, then each is applied', async () => {
    // WooCommerce's delivery id is wp_hash(webhook id . time()): one id for a webhook's deliveries within a second.
    for (const id of [511, 512, 513]) {
      const res = await post(
        store.delivery('product.created', { ...product(id), date_modified_gmt: '2026-11-24T10:00:00' }, { deliveryId: 'same' }),
      );
      expect(res.body).toEqual({ status: 200, result: 'applied' });
    }
    expect((await products()).map((row) => Number(row.shop_product_id)).sort()).toEqual([511, 512, 513]);
  });

  it('When an older product delivery arrives after a newer one, then the product is not rolled back', async () => {
    const at = (name: string, modified: string) => ({ ...product(521, name), date_modified_gmt: modified });
    expect((await post(store.delivery('product.updated', at('New name', '2026-11-24T10:00:05')))).body.result).toBe('applied');
    const late = await post(store.delivery('product.updated', at('Old name', '2026-11-24T10:00:01')));
    expect(late.status).toBe(200);
    expect((await products())[0].name).toBe('New name');
    expect((await post(store.delivery('product.updated', at('Newest name', '2026-11-24T10:00:09')))).body.result).toBe('applied');
    expect((await products())[0].name).toBe('Newest name');
  });

  it.each([
    [
      'a wrong signature',
      (d: { headers: Record<string, string> }) => (d.headers['X-WC-Webhook-Signature'] = Buffer.alloc(32).toString('base64')),
    ],
    ['a missing signature', (d: { headers: Record<string, string> }) => delete d.headers['X-WC-Webhook-Signature']],
    ['a body changed after signing', (d: { body: string }) => (d.body = d.body.replace('Coffee', 'Cocoa'))],
  ])('When a delivery has %s, then 401 and nothing is stored', async (_, spoil) => {
    const delivery = store.delivery('product.created', product(502));
    spoil(delivery);
    const res = await post(delivery);
    expect(res.status).toBe(401);
    expect(await products()).toHaveLength(0);
    expect(await t.ctx.db('shop_webhook_deliveries')).toHaveLength(0);
  });

  it('When a product is deleted in the store, then it is marked deleted, not removed', async () => {
    await post(store.delivery('product.created', product(503)));
    await post(store.delivery('product.deleted', { id: 503 }));
    const [row] = await products();
    expect(row.deleted_at).not.toBeNull();
  });

  it(
    "When a variation's save is delivered, then its product's variations are read from the store and the changed one " +
      'has its new price; a deleted variable product takes its variations with it',
    async () => {
      const { productId, variationIds } = store.addVariableProduct({
        name: 'Shirt',
        variations: [
          { options: { Colour: 'Blue' }, price: '12.50' },
          { options: { Colour: 'Red' }, price: '15.00' },
        ],
      });
      expect((await post(store.delivery('product.created', store.products.get(productId) as Record<string, unknown>))).body.result).toBe(
        'applied',
      );
      const priced = async () =>
        (await products()).map((row) => [Number(row.shop_product_id), row.name, Number(row.amount), row.deleted_at === null]);
      expect(await priced()).toEqual(
        expect.arrayContaining([
          [variationIds[0], 'Shirt — Blue', 1250, true],
          [variationIds[1], 'Shirt — Red', 1500, true],
        ]),
      );
      expect(await products()).toHaveLength(2);

      store.saveVariation(variationIds[0] as number, { price: '13.00', regular_price: '13.00' });
      const res = await post(store.delivery('product.updated', store.variationAsProduct(variationIds[0] as number)));
      expect(res.body.result).toBe('applied');
      expect(store.requests.filter((request) => request.path.endsWith(`/products/${productId}/variations`))).toHaveLength(2);
      expect(await priced()).toEqual(expect.arrayContaining([[variationIds[0], 'Shirt — Blue', 1300, true]]));

      await post(store.delivery('product.deleted', { id: productId }));
      expect((await priced()).map(([, , , live]) => live)).toEqual([false, false]);
    },
  );

  it('When a checkout draft order is delivered, then it is not listed; delivered again once placed, it is an unpaid Order', async () => {
    const draft = {
      id: 7005,
      number: '7005',
      status: 'checkout-draft',
      currency: 'EUR',
      total: '24.95',
      date_modified_gmt: '2026-11-20T10:00:00',
      billing: {},
      line_items: [],
      meta_data: [],
    };
    await post(store.delivery('order.created', draft));
    expect((await t.as(token).get('/api/v2/orders')).body.meta.total).toBe(0);
    expect(await t.ctx.db('orders').where({ account_id: accountId })).toHaveLength(0);
    await post(store.delivery('order.updated', { ...draft, status: 'pending', date_modified_gmt: '2026-11-20T10:01:00' }));
    const list = await t.as(token).get('/api/v2/orders');
    expect(list.body.meta.total).toBe(1);
    expect(list.body.data[0]).toMatchObject({ shop_order_id: 7005, status: 'unpaid' });
  });

  it('When an order is delivered, then it becomes an Order as the sync would make it; deleted in the store, it is cancelled', async () => {
    const order = {
      id: 7001,
      number: 'W-7001',
      status: 'processing',
      currency: 'EUR',
      total: '24.95',
      billing: { first_name: 'Bert', last_name: 'Jansen', email: 'bert@example.nl' },
      line_items: [],
      meta_data: [],
    };
    expect((await post(store.delivery('order.created', order))).body.result).toBe('applied');
    const row = await t.ctx.db('orders').where({ account_id: accountId, shop_order_id: 7001 }).first();
    expect(row).toMatchObject({ status: 'paid', total_amount: 2495, shop_order_number: 'W-7001', email: 'bert@example.nl' });
    await post(store.delivery('order.deleted', { id: 7001 }));
    expect((await t.ctx.db('orders').where({ account_id: accountId, shop_order_id: 7001 }).first()).status).toBe('cancelled');
  });

  const order = (id: number, status: string, modified: string) => ({
    id,
    number: `W-${id}`,
    status,
    currency: 'EUR',
    total: '24.95',
    date_modified_gmt: modified,
    billing: { first_name: 'Bert', last_name: 'Jansen', email: 'bert@example.nl' },
    line_items: [],
    meta_data: [],
  });
  const orderRow = (id: number) => t.ctx.db('orders').where({ account_id: accountId, shop_order_id: id }).first();

  it('When two orders updated in the same second arrive under one delivery id, then both apply; a replay is a duplicate', async () => {
    const first = store.delivery('order.updated', order(7101, 'processing', '2026-11-24T10:00:00'), { deliveryId: 'same' });
    const second = store.delivery('order.updated', order(7102, 'processing', '2026-11-24T10:00:00'), { deliveryId: 'same' });
    expect((await post(first)).body).toEqual({ status: 200, result: 'applied' });
    expect((await post(second)).body).toEqual({ status: 200, result: 'applied' });
    expect(await orderRow(7101)).toMatchObject({ status: 'paid', shop_order_number: 'W-7101' });
    expect(await orderRow(7102)).toMatchObject({ status: 'paid', shop_order_number: 'W-7102' });
    expect((await post(second)).body).toEqual({ status: 200, result: 'duplicate' });
  });

  it('When an older order delivery arrives after a newer one, then the order is not rolled back', async () => {
    expect((await post(store.delivery('order.updated', order(7201, 'completed', '2026-11-24T10:00:05')))).body.result).toBe('applied');
    const late = await post(store.delivery('order.updated', order(7201, 'on-hold', '2026-11-24T10:00:01')));
    expect(late.status).toBe(200);
    expect((await orderRow(7201)).status).toBe('completed');
    expect((await post(store.delivery('order.updated', order(7201, 'cancelled', '2026-11-24T10:00:09')))).body.result).toBe('applied');
    expect((await orderRow(7201)).status).toBe('cancelled');
  });

  it(
    'When a signed delivery carries a record we cannot use, then 200 (the store must not disable the hook) and nothing is ' + 'stored',
    async () => {
      const res = await post(store.delivery('product.updated', { id: 504, name: null }));
      expect(res.body).toEqual({ status: 200, result: 'ignored' });
      expect(await products()).toHaveLength(0);
    },
  );

  it('When the account reference is unknown, then 404', async () => {
    const res = await request(t.app).post('/webhooks/woocommerce/nope').set('X-WC-Webhook-Signature', 'x').send('{}');
    expect(res.status).toBe(404);
  });
});

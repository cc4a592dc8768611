import { orderResponse } from '../../src/modules/orders/schemas';
import { TEST_DATABASES } from '../support/databases';
import { useTestApp } from '../support/testApp';
import { accountWithConnectedStore } from '../support/connectedStore';
import type { WooSimulator } from '../../fakes/woocommerce/simulator';

describe.each(TEST_DATABASES)('syncing store orders on %s', (kind) => {
  const t = useTestApp(kind, { perTest: true });
  let store: WooSimulator;
  let token: string;
  let accountId: string;
  let productIds: number[];

  beforeEach(async () => {
    ({ token, accountId, store } = await accountWithConnectedStore(t));
    productIds = store.addProducts(2);
    await sync('products');
  });
  afterEach(async () => {
    await store.stop();
  });

  async function sync(what: 'products' | 'orders', body: object = {}) {
    const started = await t.as(token).post(`/api/v2/sync/${what}`, body);
    expect(started.status).toBe(202);
    await t.ctx.background.idle();
    return (await t.as(token).get(`/api/v2/sync/runs/${started.body.id}`)).body;
  }
  const orderRequests = () => store.requests.filter((request) => request.path.endsWith('/orders'));

  it(
    'When 250 orders are synced, then 3 pages are read and each becomes an Order with its buyer, store ids and lines, in the spec ' +
      'shape',
    async () => {
      store.addOrders(250, () => ({ line_items: [{ id: 1, product_id: productIds[0], quantity: 2, total: '19.90' }] }));
      const run = await sync('orders');
      expect(run).toMatchObject({
        kind: 'orders',
        status: 'succeeded',
        progress: { pages_done: 3, pages_total: 3, created: 250, failed: 0 },
      });
      expect(orderRequests().map((request) => request.query.per_page)).toEqual(['100', '100', '100']);
      const list = await t.as(token).get('/api/v2/orders?per_page=2');
      expect(list.body.meta.total).toBe(250);
      const [first] = list.body.data;
      expect(orderResponse.strict().parse(first)).toEqual(first);
      expect(first).toMatchObject({
        status: 'paid',
        total_amount: '19.90',
        currency: 'EUR',
        first_name: 'Anna',
        last_name: 'de Vries',
        email: 'buyer0@example.nl',
        address: 'Dorpsstraat 1',
        postal_code: '3511 AA',
        city: 'Utrecht',
        country: 'NL',
        shop_order_id: expect.any(Number),
        shop_order_number: String(first.shop_order_id),
        products: [expect.objectContaining({ quantity: 2 })],
      });
    },
  );

  it("When an order line names a variation, then the line is the variation's Product, at the variation's price", async () => {
    const { productId, variationIds } = store.addVariableProduct({
      name: 'Shirt',
      variations: [
        { options: { Colour: 'Blue' }, price: '12.50' },
        { options: { Colour: 'Red' }, price: '15.00' },
      ],
    });
    await sync('products');
    const [orderId] = store.addOrders(1, () => ({
      total: '30.00',
      line_items: [{ id: 1, product_id: productId, variation_id: variationIds[1], quantity: 2, total: '30.00' }],
    }));
    expect((await sync('orders')).progress).toMatchObject({ created: 1, failed: 0 });
    const list = await t.as(token).get('/api/v2/orders');
    const order = list.body.data.find((one: { shop_order_id: number }) => one.shop_order_id === orderId);
    expect(order.products).toEqual([
      expect.objectContaining({
        quantity: 2,
        product: expect.objectContaining({ name: 'Shirt — Red', amount: '15.00', shop_product_id: variationIds[1] }),
      }),
    ]);
  });

  it('When an order is a checkout draft, then it is not listed nor counted; once placed (pending) it is listed as unpaid', async () => {
    const [draftId] = store.addOrders(1, () => ({
      status: 'checkout-draft',
      line_items: [{ id: 1, product_id: productIds[0], quantity: 1, total: '9.95' }],
    }));
    store.addOrders(1);
    expect((await sync('orders')).progress).toMatchObject({ created: 1, failed: 0 });
    let list = await t.as(token).get('/api/v2/orders');
    expect(list.body.meta.total).toBe(1);
    expect(list.body.data.map((one: { shop_order_id: number }) => one.shop_order_id)).not.toContain(draftId);
    Object.assign(store.orders.get(draftId as number) as object, { status: 'pending', date_modified_gmt: '2026-11-30T10:00:00' });
    expect((await sync('orders')).progress).toMatchObject({ created: 1, failed: 0 });
    list = await t.as(token).get('/api/v2/orders');
    expect(list.body.meta.total).toBe(2);
    expect(list.body.data.find((one: { shop_order_id: number }) => one.shop_order_id === draftId)).toMatchObject({ status: 'unpaid' });
  });

  it('When the sync is repeated, then nothing changes; an incremental one reads only what changed', async () => {
    const ids = store.addOrders(30);
    await sync('orders');
    expect((await sync('orders', { full: true })).progress).toMatchObject({ created: 0, updated: 0, unchanged: 30 });
    store.requests.length = 0;
    Object.assign(store.orders.get(ids[5] as number) as object, { status: 'completed', date_modified_gmt: '2026-11-02T00:00:00' });
    const incremental = await sync('orders');
    expect(orderRequests()[0]?.query.modified_after).toBe('2026-10-31T23:55:29');
    expect(incremental.progress).toMatchObject({ created: 0, updated: 1 });
    const row = await t.ctx.db('orders').where({ account_id: accountId, shop_order_id: ids[5] }).first();
    expect(row.status).toBe('completed');
  });

  it.each([
    ['pending', 'unpaid'],
    ['failed', 'unpaid'],
    ['on-hold', 'pending'],
    ['processing', 'paid'],
    ['completed', 'completed'],
    ['cancelled', 'cancelled'],
    ['refunded', 'cancelled'],
  ])('When the store order is %s, then ours is %s', async (theirs, ours) => {
    const [id] = store.addOrders(1, () => ({ status: theirs }));
    await sync('orders');
    expect((await t.ctx.db('orders').where({ account_id: accountId, shop_order_id: id }).first()).status).toBe(ours);
  });

  it('When one order is malformed or names a product not synced, then it fails alone or loses only that line, named', async () => {
    const [, bad, orphan] = store.addOrders(4);
    store.orders.set(bad as number, { id: bad, number: 7, status: 'processing' });
    Object.assign(store.orders.get(orphan as number) as object, {
      line_items: [{ id: 9, product_id: 999999, quantity: 1, total: '1.00' }],
    });
    const run = await sync('orders');
    expect(run).toMatchObject({ status: 'succeeded', progress: { created: 3, failed: 1 } });
    expect(run.errors).toEqual(
      expect.arrayContaining([
        { record: `order ${bad}`, error: expect.any(String) },
        { record: `order ${orphan}`, error: 'product 999999 is not synced yet: its line is left out until it is' },
      ]),
    );
  });
});

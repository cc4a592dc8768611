import request from 'supertest';
import { cli } from '../cli/runInMemory';
import { TEST_DATABASES } from '../support/databases';
import { useTestApp } from '../support/testApp';
import { accountWithConnectedStore } from '../support/connectedStore';
import type { WooSimulator } from '../../fakes/woocommerce/simulator';

/**
 * Checkout to payments: a payment made for a store order (`shop_order_id`) is for that order; paid,
 * it marks the order paid here and in the store; not paid, it leaves a note and the order payable.
 * Subscription products make the payment `first` and start one Subscription per line. Sandbox
 * provider; the store is the wc/v3 simulator over HTTP; the clock stands at 2026-11-21 10:00 UTC.
 */
describe.each(TEST_DATABASES)('store checkout on %s', (kind) => {
  const t = useTestApp(kind, { perTest: true });
  let store: WooSimulator;
  let token: string;
  let accountId: string;
  let customer: { id: string; provider_customer_id: string };

  beforeEach(async () => {
    ({ token, accountId, store } = await accountWithConnectedStore(t));
    customer = (await t.as(token).post('/api/v2/customers', { first_name: 'Anna', last_name: 'de Vries', email: 'anna@example.nl' })).body;
  });
  afterEach(async () => {
    await store.stop();
  });

  const coffee = () => store.addProducts(1, () => ({ name: 'Coffee beans', price: '7.50', regular_price: '7.50' }))[0] as number;
  const subscriptionProduct = (name: string, price: string, period: string, interval = '1', length = '0') =>
    store.addSubscriptionProduct({ name, price, period, interval, length });
  /** A pending store order, as checkout leaves it, not synced here yet. */
  const storeOrder = (total: string, lines: Array<[number, number]>) =>
    store.addOrders(1, () => ({
      status: 'pending',
      total,
      // Each line costs its product's price, as the store's checkout priced it.
      line_items: lines.map(([productId, quantity], index) => ({
        id: index + 1,
        product_id: productId,
        quantity,
        total: (Number(store.products.get(productId)?.price) * quantity).toFixed(2),
      })),
    }))[0] as number;

  const pay = (shopOrderId: number, amount: number, extra: Record<string, unknown> = {}) =>
    t.as(token).post('/api/v2/payments', {
      amount,
      currency: 'EUR',
      provider_customer_id: customer.provider_customer_id,
      description: `Order ${shopOrderId}`,
      redirect_url: 'https://shop.example/checkout/order-received',
      shop_order_id: shopOrderId,
      ...extra,
    });
  /** The buyer on the sandbox checkout; what follows in the background (the write-back) is waited for. */
  const checkout = async (providerPaymentId: string, status = 'paid') => {
    expect((await request(t.app).post(`/sandbox/checkout/${providerPaymentId}`).type('form').send({ status })).status).toBe(303);
    await t.ctx.background.idle();
  };
  const ourOrder = (shopOrderId: number) => t.ctx.db('orders').where({ account_id: accountId, shop_order_id: shopOrderId }).first();
  const metaOf = (shopOrderId: number) => (store.orders.get(shopOrderId)?.meta_data ?? []) as Array<{ key: string; value: unknown }>;

  it(
    'When a payment is made for a store order, then it is for that Order (read fresh from the store), and paid it marks the order ' +
      'paid here and in the store',
    async () => {
      const shopOrderId = storeOrder('15.00', [[coffee(), 2]]);
      const res = await pay(shopOrderId, 15);
      expect(res.status).toBe(201);
      const order = await ourOrder(shopOrderId);
      expect(order).toMatchObject({ status: 'unpaid', total_amount: expect.anything() });
      const payment = await t.ctx.db('payments').where({ account_id: accountId, id: res.body.id }).first();
      expect(payment).toMatchObject({ purpose: 'order', purpose_id: order.id, sequence_type: 'oneoff', amount: 1500 });

      await checkout(res.body.provider_payment_id);
      expect((await ourOrder(shopOrderId)).status).toBe('paid');
      const inStore = store.orders.get(shopOrderId);
      expect(inStore).toMatchObject({
        status: 'processing',
        transaction_id: res.body.provider_payment_id,
        date_paid_gmt: expect.any(String),
      });
      expect(metaOf(shopOrderId)).toContainEqual({ key: '_rps_payment_id', value: res.body.id });
      expect(store.notes.get(shopOrderId)).toEqual([
        expect.objectContaining({ note: expect.stringContaining(res.body.provider_payment_id) }),
      ]);
      const tasks = await t.ctx.db('shop_tasks').where({ account_id: accountId });
      expect(tasks).toEqual([expect.objectContaining({ kind: 'paid', status: 'done', attempts: 1 })]);

      const again = await pay(shopOrderId, 15);
      expect(again.status).toBe(422);
      expect(again.body.fields.shop_order_id).toEqual([`Order ${shopOrderId} is paid already.`]);
    },
  );

  it(
    'When the payment fails or expires, then the store order gets a note and stays payable; a new payment for it can be ' + 'made',
    async () => {
      const shopOrderId = storeOrder('7.50', [[coffee(), 1]]);
      const first = await pay(shopOrderId, 7.5);
      await checkout(first.body.provider_payment_id, 'failed');
      expect((await ourOrder(shopOrderId)).status).toBe('unpaid');
      expect(store.orders.get(shopOrderId)).toMatchObject({ status: 'pending' });
      expect(store.notes.get(shopOrderId)).toEqual([expect.objectContaining({ note: expect.stringMatching(/failed.*can still be paid/) })]);

      const second = await pay(shopOrderId, 7.5);
      expect(second.status).toBe(201);
      await checkout(second.body.provider_payment_id);
      expect(store.orders.get(shopOrderId)).toMatchObject({ status: 'processing' });
    },
  );

  it(
    'When the store fails the write-back, then the task is kept and the job finishes it later; a late failure after paid changes ' +
      'nothing',
    async () => {
      const shopOrderId = storeOrder('7.50', [[coffee(), 1]]);
      const res = await pay(shopOrderId, 7.5);
      store.fail('PUT', new RegExp(`/orders/${shopOrderId}$`), 500, 3);
      await checkout(res.body.provider_payment_id);
      expect(store.orders.get(shopOrderId)).toMatchObject({ status: 'pending' });
      const [task] = await t.ctx.db('shop_tasks').where({ account_id: accountId });
      expect(task).toMatchObject({ status: 'pending', attempts: 1, last_error: expect.stringContaining('500') });

      expect((await cli(t.ctx, 'jobs', 'run', 'write-back-to-stores')).out).toEqual([
        expect.stringMatching(/^write-back-to-stores: 0 processed, 0 failed/),
      ]); // not due yet
      t.clock.advance(2 * 60 * 1000);
      expect((await cli(t.ctx, 'jobs', 'run', 'write-back-to-stores')).out).toEqual([
        expect.stringMatching(/^write-back-to-stores: 1 processed, 0 failed/),
      ]);
      expect(store.orders.get(shopOrderId)).toMatchObject({ status: 'processing' });
      expect((await t.ctx.db('shop_tasks').where({ id: task.id }).first()).status).toBe('done');

      // The provider reports the payment again (a duplicate webhook): nothing is queued again.
      await request(t.app)
        .post(`/webhooks/mollie?account=${(await t.ctx.db('accounts').where({ id: accountId }).first()).public_ref}`)
        .type('form')
        .send({ id: res.body.provider_payment_id });
      await t.ctx.background.idle();
      expect(await t.ctx.db('shop_tasks').where({ account_id: accountId })).toHaveLength(1);
      expect(store.notes.get(shopOrderId)).toHaveLength(1);
    },
  );

  it(
    'When the order holds subscription products, then the payment is first, and paid it starts one Subscription per subscription ' +
      'line (two of one interval too) on the new mandate, once',
    async () => {
      const monthly = subscriptionProduct('Coffee club', '9.95', 'month');
      const monthlyToo = subscriptionProduct('Filter papers', '2.00', 'month');
      const yearly = subscriptionProduct('Grinder service', '30.00', 'year', '1', '3');
      const beans = coffee();
      const shopOrderId = storeOrder('59.45', [
        [monthly, 1],
        [monthlyToo, 2],
        [yearly, 1],
        [beans, 1],
      ]);
      const res = await pay(shopOrderId, 59.45);
      expect(res.status).toBe(201);
      expect(await t.ctx.db('payments').where({ id: res.body.id }).first()).toMatchObject({ sequence_type: 'first' });

      await checkout(res.body.provider_payment_id);
      const [mandate] = await t.ctx.db('mandates').where({ account_id: accountId, customer_id: customer.id });
      expect(mandate).toMatchObject({ status: 'valid' });
      const subscriptions = await t.ctx.db('subscriptions').where({ account_id: accountId }).orderBy('next_amount');
      expect(subscriptions).toEqual([
        expect.objectContaining({
          provider_mandate_id: mandate.id,
          status: 'active',
          next_amount: expect.anything(),
          next_payment_at: expect.anything(),
        }),
        expect.objectContaining({ provider_mandate_id: mandate.id, status: 'active' }),
        expect.objectContaining({ provider_mandate_id: mandate.id, status: 'active' }),
      ]);
      const list = await t.as(token).get('/api/v2/subscriptions');
      const byAmount = Object.fromEntries(
        list.body.data.map((sub: { next_amount: string; next_payment_at: string }) => [sub.next_amount, sub.next_payment_at]),
      );
      // One interval after the checkout, which paid the first period.
      expect(byAmount).toEqual({ '9.95': '2026-12-21', '4.00': '2026-12-21', '30.00': '2027-11-21' });
      expect(list.body.data.map((sub: { name: string }) => sub.name).sort()).toEqual([
        `Order ${shopOrderId}: 2 × Filter papers`,
        `Order ${shopOrderId}: Coffee club`,
        `Order ${shopOrderId}: Grinder service`,
      ]);

      const order = await t.as(token).get(`/api/v2/orders/${(await ourOrder(shopOrderId)).id}`);
      expect(order.body).toMatchObject({ status: 'paid', subscription: expect.any(String), subscription_status: 'active' });
      expect(
        order.body.products.map((line: { product: { name: string }; next_order: string | null }) => [line.product.name, line.next_order]),
      ).toEqual([
        ['Coffee club', '2026-12-21'],
        ['Filter papers', '2026-12-21'],
        ['Grinder service', '2027-11-21'],
        ['Coffee beans', null],
      ]);

      // Reported paid again: no subscription is made twice.
      const publicRef = (await t.ctx.db('accounts').where({ id: accountId }).first()).public_ref;
      await request(t.app).post(`/webhooks/mollie?account=${publicRef}`).type('form').send({ id: res.body.provider_payment_id });
      await t.ctx.background.idle();
      expect(await t.ctx.db('subscriptions').where({ account_id: accountId })).toHaveLength(3);
    },
  );

  it.each([
    ['the amount is not the order total', () => ({ amount: 8 }), 'amount', "The amount must be the order's total, 7.50."],
    ['the store has no such order', () => ({ shop_order_id: 999999 }), 'shop_order_id', 'The store has no order 999999.'],
  ])('When %s, then 422 names the field and no payment is made', async (_case, change, field, message) => {
    const shopOrderId = storeOrder('7.50', [[coffee(), 1]]);
    const res = await pay(shopOrderId, 7.5, change());
    expect(res.status).toBe(422);
    expect(res.body.fields[field]).toEqual([message]);
    expect(await t.ctx.db('payments').where({ account_id: accountId })).toHaveLength(0);
  });

  it(
    "When a store order's line is a variation not synced yet, then it is read with its product and the line is the variation at " +
      'its price; a checkout draft is refused until placed',
    async () => {
      const { productId, variationIds } = store.addVariableProduct({
        name: 'Shirt',
        variations: [
          { options: { Colour: 'Blue' }, price: '12.50' },
          { options: { Colour: 'Red' }, price: '15.00' },
        ],
      });
      const [shopOrderId] = store.addOrders(1, () => ({
        status: 'checkout-draft',
        total: '15.00',
        line_items: [{ id: 1, product_id: productId, variation_id: variationIds[1], quantity: 1, total: '15.00' }],
      })) as [number];
      const draft = await pay(shopOrderId, 15);
      expect(draft.status).toBe(422);
      expect(JSON.stringify(draft.body)).toContain('not placed yet');
      expect(await ourOrder(shopOrderId)).toBeUndefined();

      Object.assign(store.orders.get(shopOrderId) as object, { status: 'pending' });
      expect((await pay(shopOrderId, 15)).status).toBe(201);
      const order = await ourOrder(shopOrderId);
      const lines = await t.ctx.db('order_lines').where({ account_id: accountId, order_id: order.id });
      const [product] = await t.ctx.db('products').where({ account_id: accountId, id: lines[0].product_id });
      expect(product).toMatchObject({ name: 'Shirt — Red', amount: 1500 });
      expect(Number(product.shop_product_id)).toBe(variationIds[1]);
    },
  );

  it('When the store cannot be reached, then 502 says so and no payment is made; without a connected store 422', async () => {
    const shopOrderId = storeOrder('7.50', [[coffee(), 1]]);
    store.fail('GET', new RegExp(`/orders/${shopOrderId}$`), 503, 5);
    const res = await pay(shopOrderId, 7.5);
    expect(res.status).toBe(502);
    expect(res.body.error).toContain(`order ${shopOrderId}`);
    expect(await t.ctx.db('payments').where({ account_id: accountId })).toHaveLength(0);

    const other = await t.newAccount();
    const theirs = (await t.as(other.token).post('/api/v2/customers', { first_name: 'B', last_name: 'C', email: 'b@example.nl' })).body;
    const refused = await t.as(other.token).post('/api/v2/payments', {
      amount: 7.5,
      currency: 'EUR',
      provider_customer_id: theirs.provider_customer_id,
      description: 'x',
      redirect_url: 'https://shop.example/',
      shop_order_id: shopOrderId,
    });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('shop_not_connected');
    // Another account sees nothing of this store's orders.
    expect((await t.as(other.token).get('/api/v2/orders')).body.data).toEqual([]);
  });
});

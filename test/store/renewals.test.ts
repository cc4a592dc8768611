import request from 'supertest';
import { processDueWebhookCalls } from '../../src/modules/payments/webhookCalls';
import { cli } from '../cli/runInMemory';
import { TEST_DATABASES } from '../support/databases';
import { useTestApp } from '../support/testApp';
import { accountWithConnectedStore } from '../support/connectedStore';
import { paidStoreOrder } from '../support/storeCheckout';
import type { WooSimulator } from '../../fakes/woocommerce/simulator';

/**
 * Renewal orders: every later charge of a subscription that a paid store order started becomes an
 * Order here (with `products[].next_order`) and an order in the store, child of the first order,
 * marked paid when the charge is paid — once, also when the store's answer is lost. Sandbox provider
 * (a recurring charge of x.13 fails with AM04); the clock stands at 2026-11-21 10:00 UTC.
 */
describe.each(TEST_DATABASES)('store renewal orders on %s', (kind) => {
  const t = useTestApp(kind, { perTest: true });
  let store: WooSimulator;
  let token: string;
  let accountId: string;
  let publicRef: string;

  beforeEach(async () => {
    ({ token, accountId, store } = await accountWithConnectedStore(t));
    publicRef = (await t.ctx.db('accounts').where({ id: accountId }).first()).public_ref;
  });
  afterEach(async () => {
    await store.stop();
  });

  /** A buyer checks out a monthly subscription product at `price` and pays; its Subscription starts on 2026-12-21. */
  async function subscribedThroughCheckout(
    price: string,
    placedBy: { customer_id?: number } = {},
  ): Promise<{ shopOrderId: number; shopProductId: number }> {
    const shopProductId = store.addSubscriptionProduct({ name: 'Coffee club', price, period: 'month' });
    const [shopOrderId] = store.addOrders(1, () => ({
      ...placedBy,
      status: 'pending',
      total: price,
      line_items: [{ id: 1, product_id: shopProductId, quantity: 1, total: price }],
    })) as [number];
    await paidStoreOrder(t, token, shopOrderId, price);
    return { shopOrderId, shopProductId };
  }

  /**
   * The billing run of the due date (ahead of the test clock: --force), then the provider's webhook for the charge (the sandbox settles it
   * then).
   */
  async function chargeAndSettle(date: string): Promise<string> {
    expect((await cli(t.ctx, 'billing', 'run', '--date', date, '--force')).out[0]).toContain('1 charged');
    const charge = await t.ctx.db('payments').where({ account_id: accountId, purpose: 'charge', status: 'pending' }).first();
    await request(t.app).post(`/webhooks/mollie?account=${publicRef}`).type('form').send({ id: charge.provider_payment_id });
    await processDueWebhookCalls(t.ctx, new AbortController().signal);
    await t.ctx.background.idle();
    return charge.provider_payment_id;
  }

  const renewalsInStore = (parentId: number) => [...store.orders.values()].filter((order) => order.parent_id === parentId);
  const renewalsHere = () => t.ctx.db('orders').where({ account_id: accountId }).whereNotNull('parent_order_id');

  it(
    'When a charge of such a subscription is paid, then a paid renewal order is made in the store under the first order, and an ' +
      'Order here with next_order',
    async () => {
      const { shopOrderId, shopProductId } = await subscribedThroughCheckout('9.95');
      const providerPaymentId = await chargeAndSettle('2026-12-21');

      const [inStore] = renewalsInStore(shopOrderId);
      expect(renewalsInStore(shopOrderId)).toHaveLength(1);
      expect(inStore).toMatchObject({
        status: 'processing',
        date_paid_gmt: expect.any(String),
        transaction_id: providerPaymentId,
        line_items: [expect.objectContaining({ product_id: shopProductId, quantity: 1 })],
      });
      const [renewal] = await renewalsHere();
      expect(inStore?.meta_data).toContainEqual({ key: '_rps_order_id', value: renewal.id });
      // The plugin's contract: the renewal names its subscription, the paid checkout order the subscriptions it started.
      const [subscription] = await t.ctx.db('subscriptions').where({ account_id: accountId });
      expect(inStore?.meta_data).toContainEqual({ key: '_rps_subscription_id', value: subscription.id });
      expect(store.orders.get(shopOrderId)?.meta_data).toContainEqual({ key: '_rps_subscription_ids', value: subscription.id });
      expect(store.notes.get(Number(inStore?.id))).toEqual([
        expect.objectContaining({ note: expect.stringContaining(`Renewal of order #${shopOrderId}`) }),
      ]);

      const res = await t.as(token).get(`/api/v2/orders/${renewal.id}`);
      expect(res.body).toMatchObject({
        status: 'paid',
        total_amount: '9.95',
        shop_order_id: inStore?.id,
        subscription: expect.any(String),
        first_name: 'Anna',
        products: [
          expect.objectContaining({ quantity: 1, next_order: '2027-01-21', product: expect.objectContaining({ name: 'Coffee club' }) }),
        ],
      });

      // The next month's charge makes the next renewal; the store's order sync links, never duplicates, them.
      await chargeAndSettle('2027-01-21');
      expect(renewalsInStore(shopOrderId)).toHaveLength(2);
      await t.as(token).post('/api/v2/sync/orders', { full: true });
      await t.ctx.background.idle();
      expect(await renewalsHere()).toHaveLength(2);
      expect(await t.ctx.db('orders').where({ account_id: accountId })).toHaveLength(3);
    },
  );

  it("When a registered buyer placed the first order, the renewal is the buyer's (in My Account); a guest's is nobody's", async () => {
    const registered = await subscribedThroughCheckout('9.95', { customer_id: 42 });
    await chargeAndSettle('2026-12-21');
    expect(renewalsInStore(registered.shopOrderId)).toEqual([expect.objectContaining({ customer_id: 42 })]);

    const guest = await subscribedThroughCheckout('4.95');
    await chargeAndSettle('2026-12-21');
    const [renewal] = renewalsInStore(guest.shopOrderId);
    expect(renewal).toBeDefined();
    expect(renewal?.customer_id ?? 0).toBe(0);
  });

  it('When the subscription is a variation, then its renewal order names the variable product and the variation', async () => {
    const meta = (price: string) => [
      { key: '_subscription_price', value: price },
      { key: '_subscription_period', value: 'month' },
      { key: '_subscription_period_interval', value: '1' },
    ];
    const { productId, variationIds } = store.addVariableProduct({
      name: 'Coffee club',
      type: 'variable-subscription',
      variations: [
        { options: { Size: '250 g' }, price: '7.95', meta_data: meta('7.95') },
        { options: { Size: '1 kg' }, price: '19.95', meta_data: meta('19.95') },
      ],
    });
    const [shopOrderId] = store.addOrders(1, () => ({
      status: 'pending',
      total: '19.95',
      line_items: [{ id: 1, product_id: productId, variation_id: variationIds[1], quantity: 1, total: '19.95' }],
    })) as [number];
    const customer = (await t.as(token).post('/api/v2/customers', { first_name: 'Anna', last_name: 'de Vries', email: 'anna@example.nl' }))
      .body;
    const payment = await t.as(token).post('/api/v2/payments', {
      amount: 19.95,
      currency: 'EUR',
      provider_customer_id: customer.provider_customer_id,
      description: 'Coffee club',
      redirect_url: 'https://shop.example/checkout/order-received',
      shop_order_id: shopOrderId,
    });
    expect(payment.status).toBe(201);
    await request(t.app).post(`/sandbox/checkout/${payment.body.provider_payment_id}`).type('form').send({ status: 'paid' });
    await t.ctx.background.idle();
    await chargeAndSettle('2026-12-21');
    const [inStore] = renewalsInStore(shopOrderId);
    expect(inStore).toMatchObject({
      total: '19.95',
      line_items: [expect.objectContaining({ product_id: productId, variation_id: variationIds[1], quantity: 1, total: '19.95' })],
    });
  });

  it('When the charge fails, then the renewal order is made failed in the store with a note, and unpaid here', async () => {
    const { shopOrderId } = await subscribedThroughCheckout('9.13');
    await chargeAndSettle('2026-12-21');
    const [inStore] = renewalsInStore(shopOrderId);
    expect(inStore).toMatchObject({ status: 'failed' });
    expect(inStore?.date_paid_gmt).toBeUndefined();
    expect(store.notes.get(Number(inStore?.id))).toEqual([expect.objectContaining({ note: expect.stringContaining('Renewal not paid') })]);
    expect((await renewalsHere())[0].status).toBe('unpaid');
  });

  it(
    'When the store makes the renewal order but its answer is lost, then the next attempt finds that order and makes none ' + 'again',
    async () => {
      store.loseAnswers('POST', /\/orders$/);
      const { shopOrderId } = await subscribedThroughCheckout('9.95');
      await chargeAndSettle('2026-12-21');
      expect(renewalsInStore(shopOrderId)).toHaveLength(1);
      const [task] = await t.ctx.db('shop_tasks').where({ account_id: accountId, kind: 'renewal' });
      expect(task).toMatchObject({ status: 'pending', attempts: 1 });
      expect((await renewalsHere())[0].shop_order_id).toBeNull();

      t.clock.advance(2 * 60 * 1000);
      expect((await cli(t.ctx, 'jobs', 'run', 'write-back-to-stores')).out[0]).toMatch(/^write-back-to-stores: 1 processed, 0 failed/);
      expect(renewalsInStore(shopOrderId)).toHaveLength(1);
      const [inStore] = renewalsInStore(shopOrderId);
      expect(Number((await renewalsHere())[0].shop_order_id)).toBe(inStore?.id);
      expect(store.requests.filter((r) => r.method === 'GET' && r.query.parent === String(shopOrderId))).toHaveLength(1);
    },
  );

  it(
    'When the order sync sees the renewal order before the service recorded it, then it links it to ours instead of making ' + 'another',
    async () => {
      store.loseAnswers('POST', /\/orders$/);
      const { shopOrderId } = await subscribedThroughCheckout('9.95');
      await chargeAndSettle('2026-12-21');
      await t.as(token).post('/api/v2/sync/orders', { full: true });
      await t.ctx.background.idle();
      const [inStore] = renewalsInStore(shopOrderId);
      const [renewal] = await renewalsHere();
      expect(Number(renewal.shop_order_id)).toBe(inStore?.id);
      expect(await t.ctx.db('orders').where({ account_id: accountId })).toHaveLength(2);

      t.clock.advance(2 * 60 * 1000);
      await cli(t.ctx, 'jobs', 'run', 'write-back-to-stores');
      expect(renewalsInStore(shopOrderId)).toHaveLength(1);
      expect((await t.ctx.db('shop_tasks').where({ account_id: accountId, kind: 'renewal' }).first()).status).toBe('done');
    },
  );
});

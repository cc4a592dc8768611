import request from 'supertest';
import { runFollowUps } from '../../src/modules/follow-ups/progress';
import { processDueWebhookCalls } from '../../src/modules/payments/webhookCalls';
import { cli } from '../cli/runInMemory';
import { TEST_DATABASES } from '../support/databases';
import { TEST_PUBLIC_URL, useTestApp } from '../support/testApp';
import { accountWithConnectedStore } from '../support/connectedStore';
import { paidStoreOrder, payInSandbox } from '../support/storeCheckout';
import type { WooSimulator } from '../../fakes/woocommerce/simulator';

type Json = Record<string, unknown>;

/**
 * What renewals of a store order charge, and what follows the first order: the amount is what the
 * buyer bought (line subtotals with their tax, shipping with its tax; one-time coupons not again),
 * the renewal order in the store carries the first order's gateway, lines and shipping, a renewal a
 * follow-up recovers is written back paid, and a first order cancelled, refunded or trashed ends its
 * subscriptions at the end of the period paid. Sandbox provider (a recurring charge of x.13 fails with
 * AM04); a store in the Netherlands with prices entered without VAT (21 %); the clock stands at
 * 2026-11-21 10:00 UTC.
 */
describe.each(TEST_DATABASES)('store renewal amounts on %s', (kind) => {
  const t = useTestApp(kind, { perTest: true });
  let store: WooSimulator;
  let token: string;
  let accountId: string;
  let accountName: string;
  let publicRef: string;
  let counter = 0;

  beforeEach(async () => {
    counter += 1;
    accountName = `Renewal amounts ${process.pid}-${counter}`;
    ({ token, accountId, store } = await accountWithConnectedStore(t, accountName));
    publicRef = (await t.ctx.db('accounts').where({ id: accountId }).first()).public_ref;
    store.taxRate = 21;
  });
  afterEach(async () => {
    await store.stop();
  });

  /**
   * The buyer checks out `lines` of a monthly subscription product priced 10.00 without VAT (its
   * catalogue price), with `extra` on the order (coupons, shipping), and pays `total`.
   */
  async function subscribed(total: string, lineItems: (productId: number) => Json[], extra: Json = {}) {
    const shopProductId = store.addSubscriptionProduct({ name: 'Coffee club', price: '10.00', period: 'month' });
    const [shopOrderId] = store.addOrders(1, () => ({
      status: 'pending',
      total,
      line_items: lineItems(shopProductId),
      ...extra,
    })) as [number];
    await paidStoreOrder(t, token, shopOrderId, total);
    return { shopOrderId, shopProductId };
  }

  /** The billing run of the due date (ahead of the test clock: --force), then the provider's webhook for the charge. */
  async function chargeAndSettle(date: string): Promise<{ provider_payment_id: string; amount: number }> {
    expect((await cli(t.ctx, 'billing', 'run', '--date', date, '--force')).out[0]).toContain('1 charged');
    const charge = await t.ctx.db('payments').where({ account_id: accountId, purpose: 'charge', status: 'pending' }).first();
    await request(t.app).post(`/webhooks/mollie?account=${publicRef}`).type('form').send({ id: charge.provider_payment_id });
    await processDueWebhookCalls(t.ctx, new AbortController().signal);
    await t.ctx.background.idle();
    return { provider_payment_id: charge.provider_payment_id, amount: Number(charge.amount) };
  }

  const renewalsInStore = (parentId: number) => [...store.orders.values()].filter((order) => order.parent_id === parentId);
  const subscriptions = () => t.ctx.db('subscriptions').where({ account_id: accountId });
  const vatLine = (productId: number, extra: Json = {}) => ({
    id: 1,
    product_id: productId,
    quantity: 1,
    subtotal: '10.00',
    subtotal_tax: '2.10',
    total: '10.00',
    total_tax: '2.10',
    ...extra,
  });

  it(
    'When prices are entered without VAT, the first order had a one-time coupon and shipping, then renewals charge the lines with ' +
      'VAT and the shipping, not the coupon, and the renewal order carries the gateway, lines, tax and shipping for that amount',
    async () => {
      // 10.00 + 2.10 VAT, a coupon of 2.00 (+0.42 VAT) on the first order only, shipping 4.95 + 1.04 VAT: 15.67 paid.
      const { shopOrderId, shopProductId } = await subscribed(
        '15.67',
        (productId) => [vatLine(productId, { total: '8.00', total_tax: '1.68' })],
        {
          shipping_lines: [{ id: 2, method_id: 'flat_rate', method_title: 'Flat rate', total: '4.95', total_tax: '1.04' }],
          coupon_lines: [{ id: 3, code: 'welcome', discount: '2.00', discount_tax: '0.42' }],
          payment_method: 'mollie_wc_gateway_ideal',
          payment_method_title: 'iDEAL',
        },
      );
      const [subscription] = await subscriptions();
      expect(subscription).toMatchObject({ status: 'active' });
      // 12.10 with VAT (the catalogue says 10.00) + 5.99 shipping: what the buyer bought, month after month.
      expect((await t.as(token).get(`/api/v2/subscriptions/${subscription.id}`)).body).toMatchObject({ next_amount: '18.09' });

      const charge = await chargeAndSettle('2026-12-21');
      expect(charge.amount).toBe(1809);
      const [inStore] = renewalsInStore(shopOrderId);
      expect(inStore).toMatchObject({
        status: 'processing',
        payment_method: 'mollie_wc_gateway_ideal',
        payment_method_title: 'iDEAL',
        transaction_id: charge.provider_payment_id,
        line_items: [
          expect.objectContaining({ product_id: shopProductId, quantity: 1, subtotal: '10.00', subtotal_tax: '2.10', total: '10.00' }),
        ],
        shipping_lines: [expect.objectContaining({ method_id: 'flat_rate', method_title: 'Flat rate', total: '4.95', total_tax: '1.04' })],
        // The store's own total, its VAT added as on the first order: the amount charged.
        total: '18.09',
      });
      // Made pending, then paid through the store's own transition (which sends its e-mails), never made paid at once.
      const made = store.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/orders'));
      expect(made).toHaveLength(1);
      const renewal = await t.ctx.db('orders').where({ account_id: accountId }).whereNotNull('parent_order_id').first();
      expect(renewal).toMatchObject({ status: 'paid', payment_method: 'mollie_wc_gateway_ideal' });
      expect(Number(renewal.total_amount)).toBe(1809);
    },
  );

  it(
    'When the subscription is virtual and only a one-time product of the first order is shipped, ' +
      'then renewals charge no shipping and the renewal order has none',
    async () => {
      const [grinder] = store.addProducts(1, () => ({ name: 'Grinder', price: '20.00', regular_price: '20.00', virtual: false })) as [
        number,
      ];
      // 12.10 + 24.20 for the grinder + 5.99 shipping on the first order: 42.29.
      const { shopOrderId } = await subscribed(
        '42.29',
        (productId) => {
          (store.products.get(productId) as Json).virtual = true;
          return [
            vatLine(productId),
            vatLine(grinder, { id: 2, subtotal: '20.00', subtotal_tax: '4.20', total: '20.00', total_tax: '4.20' }),
          ];
        },
        { shipping_lines: [{ id: 3, method_id: 'flat_rate', method_title: 'Flat rate', total: '4.95', total_tax: '1.04' }] },
      );
      const [subscription] = await subscriptions();
      expect((await t.as(token).get(`/api/v2/subscriptions/${subscription.id}`)).body).toMatchObject({ next_amount: '12.10' });
      expect((await chargeAndSettle('2026-12-21')).amount).toBe(1210);
      expect(renewalsInStore(shopOrderId)[0]).toMatchObject({ shipping_lines: [], total: '12.10' });
    },
  );

  it('When the renewal order is made, then it is made pending and paid afterwards through the store', async () => {
    const { shopOrderId } = await subscribed('12.10', (productId) => [vatLine(productId)]);
    const bodies: Json[] = [];
    const original = store.orders.set.bind(store.orders);
    store.orders.set = (id: number, order: Json) => {
      bodies.push({ ...order });
      return original(id, order);
    };
    await chargeAndSettle('2026-12-21');
    store.orders.set = original;
    expect(bodies[0]).toMatchObject({ status: 'pending' });
    expect(bodies[0]?.date_paid_gmt).toBeUndefined();
    expect(renewalsInStore(shopOrderId)[0]).toMatchObject({ status: 'processing', total: '12.10' });
  });

  it("When orders are written here, then they keep the store's creation time as created_at, renewal orders too", async () => {
    const { shopOrderId } = await subscribed('12.10', (productId) => [vatLine(productId)]);
    const first = await t.ctx.db('orders').where({ account_id: accountId, shop_order_id: shopOrderId }).first();
    expect(String(first.created_at).slice(0, 19)).toBe('2026-11-01 00:00:00');
    await chargeAndSettle('2026-12-21');
    const [inStore] = renewalsInStore(shopOrderId);
    const renewal = await t.ctx.db('orders').where({ account_id: accountId }).whereNotNull('parent_order_id').first();
    expect(String(renewal.created_at).slice(0, 19)).toBe(String(inStore?.date_created_gmt).replace('T', ' '));
  });

  it('When an order synced before its prices were kept is synced again, then its lines gain them and stay its subscription', async () => {
    const { shopOrderId } = await subscribed('12.10', (productId) => [vatLine(productId)]);
    const first = await t.ctx.db('orders').where({ account_id: accountId, shop_order_id: shopOrderId }).first();
    await t.ctx.db('order_lines').where({ account_id: accountId, order_id: first.id }).update({ amount: null, shop_subtotal: null });
    await t.as(token).post('/api/v2/sync/orders', { full: true });
    await t.ctx.background.idle();
    const [line] = await t.ctx.db('order_lines').where({ account_id: accountId, order_id: first.id });
    expect(line).toMatchObject({ subscription_id: (await subscriptions())[0].id, shop_subtotal: '10.00' });
    expect(Number(line.amount)).toBe(1210);
  });

  it('When the answer to settling the renewal order is lost, then the next attempt settles that order and makes none again', async () => {
    const { shopOrderId } = await subscribed('12.10', (productId) => [vatLine(productId)]);
    // Lost on the attempt's quick retries too: the task's next attempt finishes it.
    store.loseAnswers('PUT', /\/orders\/\d+$/, 3);
    await chargeAndSettle('2026-12-21');
    const [task] = await t.ctx.db('shop_tasks').where({ account_id: accountId, kind: 'renewal' });
    expect(task).toMatchObject({ status: 'pending', attempts: 1 });
    t.clock.advance(2 * 60 * 1000);
    expect((await cli(t.ctx, 'jobs', 'run', 'write-back-to-stores')).out[0]).toMatch(/^write-back-to-stores: 1 processed, 0 failed/);
    expect(renewalsInStore(shopOrderId)).toHaveLength(1);
    expect(renewalsInStore(shopOrderId)[0]).toMatchObject({ status: 'processing', total: '12.10' });
  });

  it('When a line is a variation, then the variation is what renews, at the line price', async () => {
    const meta = [
      { key: '_subscription_price', value: '8.00' },
      { key: '_subscription_period', value: 'month' },
      { key: '_subscription_period_interval', value: '1' },
    ];
    const {
      productId: parentId,
      variationIds: [variationId],
    } = store.addVariableProduct({
      name: 'Coffee club',
      type: 'variable-subscription',
      variations: [{ options: { Size: '500 g' }, price: '8.00', meta_data: meta }],
    });
    const { shopOrderId } = await subscribed('18.15', () => [
      vatLine(parentId, { variation_id: variationId, subtotal: '15.00', subtotal_tax: '3.15', total: '15.00', total_tax: '3.15' }),
    ]);
    const [subscription] = await subscriptions();
    expect((await t.as(token).get(`/api/v2/subscriptions/${subscription.id}`)).body).toMatchObject({ next_amount: '18.15' });
    await chargeAndSettle('2026-12-21');
    expect(renewalsInStore(shopOrderId)[0]).toMatchObject({
      line_items: [expect.objectContaining({ product_id: parentId, variation_id: variationId, subtotal: '15.00' })],
      total: '18.15',
    });
  });

  it('When the store order does not say what a line cost, then no subscription starts and the order says why', async () => {
    const { shopOrderId } = await subscribed('12.10', (productId) => [vatLine(productId, { subtotal: undefined })]);
    expect(await subscriptions()).toHaveLength(0);
    expect(store.orders.get(shopOrderId)).toMatchObject({ status: 'processing' });
    expect(store.notes.get(shopOrderId)).toContainEqual(
      expect.objectContaining({
        note: expect.stringContaining(
          'No subscription was started for this order: the store\'s order does not say what "Coffee club" cost',
        ),
      }),
    );
    const order = await t.ctx.db('orders').where({ account_id: accountId, shop_order_id: shopOrderId }).first();
    expect(order).toMatchObject({ status: 'paid', subscription_id: null });
  });

  it(
    'When a failed renewal is recovered by the payment link of its follow-up, then the failed store order becomes processing and ' +
      'paid, and the Order here paid',
    async () => {
      expect((await cli(t.ctx, 'accounts', 'set-follow-ups', '--account', accountName, '--type', 'link')).code).toBe(0);
      // 7.55 + 1.58 VAT = 9.13: the sandbox fails that charge.
      const { shopOrderId } = await subscribed('9.13', (productId) => [
        vatLine(productId, { subtotal: '7.55', subtotal_tax: '1.58', total: '7.55', total_tax: '1.58' }),
      ]);
      await chargeAndSettle('2026-12-21');
      const [failed] = renewalsInStore(shopOrderId);
      expect(failed).toMatchObject({ status: 'failed' });
      const renewalHere = () => t.ctx.db('orders').where({ account_id: accountId }).whereNotNull('parent_order_id').first();
      expect((await renewalHere()).status).toBe('unpaid');

      t.clock.set('2026-12-22T07:00:00Z');
      expect(await runFollowUps(t.ctx, '2026-12-22')).toMatchObject({ linked: 1 });
      const [link] = await t.ctx.db('payment_links').where({ account_id: accountId });
      expect((await request(t.app).post(`/pay/${link.id}`).type('form').send({})).status).toBe(303);
      const linkPayment = await t.ctx.db('payments').where({ account_id: accountId, purpose: 'link' }).first();
      await payInSandbox(t, linkPayment.provider_payment_id);

      expect(store.orders.get(Number(failed?.id))).toMatchObject({ status: 'processing', transaction_id: linkPayment.provider_payment_id });
      expect(renewalsInStore(shopOrderId)).toHaveLength(1);
      expect(store.notes.get(Number(failed?.id))).toContainEqual(expect.objectContaining({ note: expect.stringContaining('Paid:') }));
      expect((await renewalHere()).status).toBe('paid');
    },
  );

  /** Posts what the store would deliver to the service (the registered address, in-process). */
  const post = ({ url, headers, body }: { url: string; headers: Record<string, string>; body: string }) => {
    let test = request(t.app).post(url.slice(TEST_PUBLIC_URL.length));
    for (const [name, value] of Object.entries(headers)) test = test.set(name, value);
    return test.send(body);
  };

  it.each<[string, (shopOrderId: number) => Promise<void>]>([
    [
      'cancelled (order webhook)',
      async (id) => {
        const order = { ...(store.orders.get(id) as Json), status: 'cancelled', date_modified_gmt: '2026-11-22T09:00:00' };
        expect((await post(store.delivery('order.updated', order))).body.result).toBe('applied');
      },
    ],
    [
      'trashed (order.deleted webhook)',
      async (id) => {
        expect((await post(store.delivery('order.deleted', { id }))).body.result).toBe('applied');
      },
    ],
    [
      'trashed (the sync)',
      async (id) => {
        Object.assign(store.orders.get(id) as Json, { status: 'trash', date_modified_gmt: '2026-11-22T09:00:00' });
        await t.as(token).post('/api/v2/sync/orders', { full: true });
        await t.ctx.background.idle();
      },
    ],
    [
      'refunded (the sync)',
      async (id) => {
        Object.assign(store.orders.get(id) as Json, { status: 'refunded', date_modified_gmt: '2026-11-22T09:00:00' });
        await t.as(token).post('/api/v2/sync/orders', { full: true });
        await t.ctx.background.idle();
      },
    ],
  ])('When the first order is %s, then its subscription is cancelled at the end of the period paid', async (_how, end) => {
    const { shopOrderId } = await subscribed('12.10', (productId) => [vatLine(productId)]);
    const [subscription] = await subscriptions();
    await end(shopOrderId);
    const after = (await t.as(token).get(`/api/v2/subscriptions/${subscription.id}`)).body;
    // The period paid (to 21 December) is served; nothing is charged from then on.
    expect(after).toMatchObject({ cancel_at: '2026-12-21', next_payment_at: null });
    expect(['active', 'cancelled']).toContain(after.status);
    expect((await cli(t.ctx, 'billing', 'run', '--date', '2026-12-21', '--force')).out[0]).toContain('0 charged');
    expect((await t.as(token).get(`/api/v2/subscriptions/${subscription.id}`)).body.status).toBe('cancelled');
  });
});

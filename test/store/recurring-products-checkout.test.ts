import request from 'supertest';
import { useConnectedStore } from '../support/connectedStore';
import { TEST_DATABASES } from '../support/databases';
import { useTestApp } from '../support/testApp';
import type { WooSimulator } from '../../fakes/woocommerce/simulator';

/**
 * A store checkout with the plugin's own recurring products (`_rps_*` meta): one Subscription per line,
 * `times` = the product's length (payments including the first), a trial that delays the first charge and
 * makes the checkout pay no period, and a free trial whose 0.00 order still leaves a mandate. Sandbox
 * provider; the store is the wc/v3 simulator over HTTP; the clock stands at 2026-11-21 10:00 UTC.
 */
describe.each(TEST_DATABASES)('checkout of recurring products on %s', (kind) => {
  const t = useTestApp(kind, { perTest: true });
  const shop = useConnectedStore(t);
  let store: WooSimulator;
  let token: string;
  let accountId: string;
  let customer: { id: string; provider_customer_id: string };

  beforeEach(async () => {
    ({ store, token, accountId } = shop);
    customer = (await t.as(token).post('/api/v2/customers', { first_name: 'Anna', last_name: 'de Vries', email: 'anna@example.nl' })).body;
  });

  /** A product the plugin's editor made recurring. */
  const recurring = (name: string, price: string, terms: Record<string, string>) =>
    store.addProducts(1, () => ({
      name,
      price,
      regular_price: price,
      virtual: true,
      meta_data: [{ key: '_rps_recurring', value: 'yes' }, ...Object.entries(terms).map(([key, value]) => ({ key: `_rps_${key}`, value }))],
    }))[0] as number;
  const oneTime = (name: string, price: string) =>
    store.addProducts(1, () => ({ name, price, regular_price: price, virtual: true }))[0] as number;
  /** A line as WooCommerce writes it with 21 % VAT: its price per period, the tax beside it. */
  const line = (id: number, productId: number, subtotal: string, tax: string, quantity = 1) => ({
    id,
    product_id: productId,
    quantity,
    subtotal,
    subtotal_tax: tax,
    total: subtotal,
    total_tax: tax,
  });
  const storeOrder = (total: string, lines: object[], feeLines: object[] = []) =>
    store.addOrders(1, () => ({ status: 'pending', total, line_items: lines, fee_lines: feeLines }))[0] as number;
  const pay = (shopOrderId: number, amount: number) =>
    t.as(token).post('/api/v2/payments', {
      amount,
      currency: 'EUR',
      provider_customer_id: customer.provider_customer_id,
      description: `Order ${shopOrderId}`,
      redirect_url: 'https://shop.example/checkout/order-received',
      shop_order_id: shopOrderId,
    });
  const checkout = async (providerPaymentId: string) => {
    expect((await request(t.app).post(`/sandbox/checkout/${providerPaymentId}`).type('form').send({ status: 'paid' })).status).toBe(303);
    await t.ctx.background.idle();
  };
  type Rule = { amount: string; interval: string; interval_amount: number; times: number | null; times_done: number };
  type Listed = { name: string; status: string; next_payment_at: string; next_amount: string; rules: Rule[] };
  const subscriptions = async (): Promise<Listed[]> =>
    (await t.as(token).get('/api/v2/subscriptions?per_page=50')).body.data.sort((a: Listed, b: Listed) => a.name.localeCompare(b.name));

  it(
    'When a monthly product of 3 payments (20.00 + 21 % VAT) is bought with a one-time product, then the checkout pays 24.20 + the ' +
      'one-time line, and its subscription charges 24.20 a month after it, twice more (times 3, one done)',
    async () => {
      const club = recurring('Coffee club', '20.00', { interval: 'month', interval_count: '1', length: '3' });
      const mug = oneTime('Mug', '10.00');
      const shopOrderId = storeOrder('36.30', [line(1, club, '20.00', '4.20'), line(2, mug, '10.00', '2.10')]);
      const res = await pay(shopOrderId, 36.3);
      expect(res.status).toBe(201);
      expect(await t.ctx.db('payments').where({ id: res.body.id }).first()).toMatchObject({ sequence_type: 'first', amount: 3630 });
      await checkout(res.body.provider_payment_id);

      expect(await subscriptions()).toEqual([
        expect.objectContaining({
          name: `Order ${shopOrderId}: Coffee club`,
          status: 'active',
          next_payment_at: '2026-12-21',
          next_amount: '24.20',
          rules: [expect.objectContaining({ amount: '24.20', interval: 'month', interval_amount: 1, times: 3, times_done: 1 })],
        }),
      ]);
    },
  );

  it(
    'When one order holds a trial product with a sign-up fee and a plain monthly one, then each line is a Subscription of its own: ' +
      'the trial one charges its period from the day the trial ends, all its payments still to come, the other one month on',
    async () => {
      const box = recurring('Tea box', '10.00', {
        interval: 'week',
        interval_count: '2',
        length: '4',
        trial_days: '14',
        signup_fee: '5.00',
      });
      const club = recurring('Coffee club', '20.00', { interval: 'month' });
      // Paid now: the club's first period (24.20) and the sign-up fee (6.05); the tea box's first period is taken off again.
      const shopOrderId = storeOrder(
        '30.25',
        [line(1, box, '10.00', '2.10'), line(2, club, '20.00', '4.20')],
        [
          { id: 3, name: 'Sign-up fee: Tea box', total: '5.00', total_tax: '1.05' },
          { id: 4, name: 'Free trial: Tea box', total: '-12.10', total_tax: '0.00' },
        ],
      );
      const res = await pay(shopOrderId, 30.25);
      expect(res.status).toBe(201);
      await checkout(res.body.provider_payment_id);

      expect(await subscriptions()).toEqual([
        expect.objectContaining({
          name: `Order ${shopOrderId}: Coffee club`,
          next_payment_at: '2026-12-21',
          rules: [expect.objectContaining({ amount: '24.20', times: null, times_done: 1 })],
        }),
        expect.objectContaining({
          name: `Order ${shopOrderId}: Tea box`,
          status: 'active',
          next_payment_at: '2026-12-05',
          next_amount: '12.10',
          rules: [expect.objectContaining({ amount: '12.10', interval: 'week', interval_amount: 2, times: 4, times_done: 0 })],
        }),
      ]);
      // The paid checkout order lists the subscriptions it started, for the plugin's My Account.
      const ids = (await t.ctx.db('subscriptions').where({ account_id: accountId }).orderBy('seq')).map((row) => row.id as string);
      expect(store.orders.get(shopOrderId)?.meta_data).toContainEqual({ key: '_rps_subscription_ids', value: ids.join(',') });
      // The order's lines say when each is next ordered.
      const order = await t.as(token).get(`/api/v2/orders/${(await t.ctx.db('orders').where({ shop_order_id: shopOrderId }).first()).id}`);
      expect(order.body.products.map((bought: { next_order: string }) => bought.next_order)).toEqual(['2026-12-05', '2026-12-21']);
    },
  );

  it(
    'When a free trial without a fee makes the order 0.00, then the payment asks 0.01 as a first payment, which leaves the mandate ' +
      'the trial’s subscription is charged on; 0.00 for an order without subscriptions, or without shop_order_id, is refused',
    async () => {
      const trial = recurring('Magazine', '5.00', { interval: 'month', trial_days: '30' });
      const shopOrderId = storeOrder('0.00', [line(1, trial, '5.00', '1.05')], [{ id: 2, name: 'Free trial: Magazine', total: '-6.05' }]);
      const res = await pay(shopOrderId, 0);
      expect(res.status).toBe(201);
      expect(await t.ctx.db('payments').where({ id: res.body.id }).first()).toMatchObject({ sequence_type: 'first', amount: 1 });
      // Asked again (the buyer went back): the same open payment is the answer.
      expect((await pay(shopOrderId, 0)).body.id).toBe(res.body.id);
      await checkout(res.body.provider_payment_id);

      const [mandate] = await t.ctx.db('mandates').where({ account_id: accountId, customer_id: customer.id });
      expect(mandate).toMatchObject({ status: 'valid' });
      expect(await subscriptions()).toEqual([
        expect.objectContaining({
          status: 'active',
          next_payment_at: '2026-12-21',
          next_amount: '6.05',
          rules: [expect.objectContaining({ amount: '6.05', times: null, times_done: 0 })],
        }),
      ]);
      expect(store.orders.get(shopOrderId)).toMatchObject({ status: 'processing' });

      const plain = storeOrder('0.00', [line(1, oneTime('Sample', '0.00'), '0.00', '0.00')]);
      const refused = await pay(plain, 0);
      expect(refused.status).toBe(422);
      expect(refused.body.fields.amount).toEqual(['The amount must be greater than 0: the order has nothing to pay.']);
      const withoutOrder = await t.as(token).post('/api/v2/payments', {
        amount: 0,
        currency: 'EUR',
        provider_customer_id: customer.provider_customer_id,
        description: 'Nothing',
        redirect_url: 'https://shop.example/',
      });
      expect(withoutOrder.status).toBe(422);
      expect(Object.keys(withoutOrder.body.fields)).toEqual(['amount']);
    },
  );
});

import { cli } from '../cli/runInMemory';
import { connectedSimulatorStore } from '../support/connectedStore';
import { TEST_DATABASES } from '../support/databases';
import { accountAtMollieFake, type CustomerAnswer, type MollieAccount, type SubscriptionAnswer } from '../support/mollieAccount';
import { useTestApp } from '../support/testApp';
import type { WooSimulator } from '../../fakes/woocommerce/simulator';

/**
 * A product's or rule's `times` is the number of payments in all (docs/api.md, Product): the first payment that
 * starts a subscription — a store checkout, a subscription link's page — is its charge 1. Each path
 * is followed through its whole life against a Mollie fake that counts the payments it holds, with
 * the billing run on every charge date and each charge settled paid. The clock starts at 2026-11-21.
 */
describe.each(TEST_DATABASES)('times counts the first payment, on %s', (kind) => {
  const t = useTestApp(kind, { perTest: true });
  let mollie: MollieAccount;
  let token: string;
  let accountId: string;

  beforeEach(async () => {
    mollie = await accountAtMollieFake(t, 'Times');
    ({ token, accountId } = mollie);
    expect((await cli(t.ctx, 'accounts', 'set-webhook', '--account', mollie.name, '--url', 'https://merchant.example/events')).code).toBe(
      0,
    );
  });
  afterEach(async () => {
    mollie.stop();
  });

  const events = async (name: string) => t.ctx.db('outbound_events').where({ account_id: accountId, event: name });

  function expectLifeOf(customer: CustomerAnswer, ended: SubscriptionAnswer, times: number) {
    expect(mollie.paymentsAtMollie(customer).map((payment) => payment.status)).toEqual(Array.from({ length: times }, () => 'paid'));
    expect(ended).toMatchObject({
      status: 'completed',
      next_payment_at: null,
      rules: [expect.objectContaining({ times, times_done: times })],
    });
  }

  it(
    'When a link with rules times 3 is paid, then the first payment and 2 charges are all the customer pays, and it ends ' + 'completed',
    async () => {
      const customer = await mollie.newCustomer();
      const link = await t.as(token).post('/api/v2/links', {
        type: 'subscription',
        description: 'Coffee box',
        customer_id: customer.id,
        rules: [{ amount: 10, interval: 'month', interval_amount: 1, times: 3 }],
      });
      await mollie.payLink(link.body.id);
      expect(await mollie.subscriptionOf(customer.id)).toMatchObject({
        status: 'active',
        start_date: '2026-11-21',
        next_payment_at: '2026-12-21',
        rules: [expect.objectContaining({ times: 3, times_done: 1 })],
      });

      const ended = await mollie.billThroughLife(customer.id);
      expectLifeOf(customer, ended, 3);
      const charges = await t.ctx
        .db('subscription_charges')
        .where({ account_id: accountId, subscription_id: ended.id })
        .orderBy('charge_number');
      expect(charges.map((row) => [row.charge_number, String(row.due_date).slice(0, 10), row.status])).toEqual([
        [1, '2026-11-21', 'paid'],
        [2, '2026-12-21', 'paid'],
        [3, '2027-01-21', 'paid'],
      ]);
      expect(await events('subscription.completed')).toHaveLength(1);
    },
  );

  it('When a link made from a product with times 3 is paid, then the customer pays 3 times in all', async () => {
    const product = await t.as(token).post('/api/v2/products', {
      name: 'Tea tin',
      type: 'subscription',
      amount: 7.5,
      vat: 21,
      interval: 'month',
      interval_value: 1,
      times: 3,
    });
    expect(product.status).toBe(201);
    const customer = await mollie.newCustomer();
    const link = await t.as(token).post('/api/v2/links', { type: 'subscription', product_id: product.body.id, customer_id: customer.id });
    expect(link.body).toMatchObject({ amount: '7.50', times: 3 });
    await mollie.payLink(link.body.id);

    expectLifeOf(customer, await mollie.billThroughLife(customer.id), 3);
  });

  describe('through a store', () => {
    let store: WooSimulator;

    beforeEach(async () => {
      store = await connectedSimulatorStore(t, token);
    });
    afterEach(async () => {
      await t.ctx.background.idle();
      await store.stop();
    });

    it(
      'When a store order of a 3-month product is paid at checkout, then the checkout and 2 renewals are all the customer ' + 'pays',
      async () => {
        const shopProductId = store.addSubscriptionProduct({ name: 'Coffee club', price: '12.50', period: 'month', length: '3' });
        const [shopOrderId] = store.addOrders(1, () => ({
          status: 'pending',
          total: '12.50',
          line_items: [{ id: 1, product_id: shopProductId, quantity: 1, total: '12.50' }],
        })) as [number];
        const customer = await mollie.newCustomer();
        const payment = await t.as(token).post('/api/v2/payments', {
          amount: 12.5,
          currency: 'EUR',
          provider_customer_id: customer.provider_customer_id,
          description: 'Coffee club',
          redirect_url: 'https://shop.example/checkout/order-received',
          shop_order_id: shopOrderId,
        });
        expect(payment.status).toBe(201);
        await mollie.payFirst(payment.body.id);
        expect(await mollie.subscriptionOf(customer.id)).toMatchObject({
          next_payment_at: '2026-12-21',
          rules: [expect.objectContaining({ times: 3, times_done: 1 })],
        });

        expectLifeOf(customer, await mollie.billThroughLife(customer.id), 3);
        expect([...store.orders.values()].filter((order) => order.parent_id === shopOrderId)).toHaveLength(2);
      },
    );
  });

  it('When a link with times 1 is paid, then the subscription is completed at once and nothing is charged later', async () => {
    const customer = await mollie.newCustomer();
    const link = await t.as(token).post('/api/v2/links', {
      type: 'subscription',
      description: 'Once',
      customer_id: customer.id,
      amount: 20,
      interval: 'month',
      times: 1,
    });
    await mollie.payLink(link.body.id);
    const subscription = await mollie.subscriptionOf(customer.id);
    expect(subscription).toMatchObject({
      status: 'completed',
      next_payment_at: null,
      rules: [expect.objectContaining({ times: 1, times_done: 1 })],
    });
    expect(await events('subscription.completed')).toEqual([expect.objectContaining({ resource_id: subscription.id })]);

    expectLifeOf(customer, await mollie.billThroughLife(customer.id), 1);
  });

  it('When a link with a trial and times 2 is paid, then the first payment paid no period: 2 charges follow the trial', async () => {
    const customer = await mollie.newCustomer();
    const link = await t.as(token).post('/api/v2/links', {
      type: 'subscription',
      description: 'Trial box',
      customer_id: customer.id,
      first_amount: 1,
      trial_interval: '14 days',
      rules: [{ amount: 10, interval: 'month', interval_amount: 1, times: 2 }],
    });
    await mollie.payLink(link.body.id);
    expect(await mollie.subscriptionOf(customer.id)).toMatchObject({
      start_date: '2026-12-05',
      next_payment_at: '2026-12-05',
      rules: [expect.objectContaining({ times: 2, times_done: 0 })],
    });

    const ended = await mollie.billThroughLife(customer.id);
    expect(mollie.paymentsAtMollie(customer).map((payment) => payment.amount)).toEqual([
      { value: '1.00', currency: 'EUR' },
      { value: '10.00', currency: 'EUR' },
      { value: '10.00', currency: 'EUR' },
    ]);
    expect(ended).toMatchObject({ status: 'completed', rules: [expect.objectContaining({ times: 2, times_done: 2 })] });
  });

  it.each([
    [1, '2026-11-21', '2027-01-01', 'the 1st after the month the first payment paid'],
    [null, '2026-11-21', '2026-12-21', 'a month after the first payment'],
  ] as Array<[number | null, string, string, string]>)(
    'When a link charging on day %s is paid, then it starts %s and its next charge is %s (%s)',
    async (day, start, next) => {
      const customer = await mollie.newCustomer();
      const link = await t.as(token).post('/api/v2/links', {
        type: 'subscription',
        description: 'Dated',
        customer_id: customer.id,
        rules: [{ amount: 10, interval: 'month', interval_amount: 1, ...(day === null ? {} : { day }) }],
      });
      await mollie.payLink(link.body.id);
      expect(await mollie.subscriptionOf(customer.id)).toMatchObject({
        start_date: start,
        next_payment_at: next,
        rules: [expect.objectContaining({ times: null, times_done: 1 })],
      });
    },
  );

  it('When the first payment is the rule’s regular amount, then it is invoiced as charge 1; a different first amount is not', async () => {
    const rules = [
      {
        amount: 12.1,
        interval: 'month',
        interval_amount: 1,
        invoice_rules: [{ quantity: 1, description: 'Coffee', amount: 10, vat: '21' }],
      },
    ];
    const regular = await mollie.newCustomer();
    const regularLink = await t
      .as(token)
      .post('/api/v2/links', { type: 'subscription', description: 'Invoiced', customer_id: regular.id, rules });
    await mollie.payLink(regularLink.body.id);
    const invoiced = await mollie.subscriptionOf(regular.id);
    const firstPayment = await t.ctx
      .db('payments')
      .where({ account_id: accountId, purpose: 'link', purpose_id: regularLink.body.id })
      .first();
    expect((await t.as(token).get(`/api/v2/subscriptions/${invoiced.id}/invoices`)).body.data).toEqual([
      expect.objectContaining({
        payment_id: firstPayment.id,
        total_excluding_vat: '10.00',
        total_vat: '2.10',
        total_including_vat: '12.10',
      }),
    ]);

    const discounted = await mollie.newCustomer();
    const discountLink = await t
      .as(token)
      .post('/api/v2/links', { type: 'subscription', description: 'First month 1.00', customer_id: discounted.id, first_amount: 1, rules });
    await mollie.payLink(discountLink.body.id);
    expect((await t.as(token).get(`/api/v2/subscriptions/${(await mollie.subscriptionOf(discounted.id)).id}/invoices`)).body.data).toEqual(
      [],
    );
  });
});

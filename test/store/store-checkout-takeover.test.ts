import { cli } from '../cli/runInMemory';
import { subscribe } from '../support/billing';
import { accountWithConnectedStore } from '../support/connectedStore';
import { TEST_DATABASES } from '../support/databases';
import { payInSandbox } from '../support/storeCheckout';
import { useTestApp } from '../support/testApp';
import type { WooSimulator } from '../../fakes/woocommerce/simulator';

/**
 * A customer with a running subscription checks out a new subscription product in the store: the
 * checkout's first payment leaves a new mandate. Only when the merchant allows it
 * (`accounts set-takeover --store-checkout on`) does that mandate take over the customer's other
 * subscriptions, and the old mandate is revoked. Sandbox provider.
 */
describe.each(TEST_DATABASES)('a store checkout’s mandate taking over on %s', (kind) => {
  const t = useTestApp(kind, { perTest: true });
  let store: WooSimulator;
  let token: string;
  let accountName: string;

  beforeEach(async () => {
    accountName = `Takeover store ${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
    ({ token, store } = await accountWithConnectedStore(t, accountName));
  });
  afterEach(async () => {
    await store.stop();
  });

  /** The same customer checks out a monthly subscription product and pays on the sandbox's page. */
  async function checkoutBy(customerId: string): Promise<string> {
    const customer = (await t.as(token).get(`/api/v2/customers/${customerId}`)).body;
    const shopProductId = store.addSubscriptionProduct({ name: 'Tea club', price: '8.00', period: 'month' });
    const [shopOrderId] = store.addOrders(1, () => ({
      status: 'pending',
      total: '8.00',
      line_items: [{ id: 1, product_id: shopProductId, quantity: 1, total: '8.00' }],
    })) as [number];
    const payment = await t.as(token).post('/api/v2/payments', {
      amount: 8,
      currency: 'EUR',
      provider_customer_id: customer.provider_customer_id,
      description: 'Tea club',
      redirect_url: 'https://shop.example/checkout/order-received',
      shop_order_id: shopOrderId,
    });
    expect(payment.status).toBe(201);
    await payInSandbox(t, payment.body.provider_payment_id);
    const row = await t.ctx.db('payments').where({ provider_payment_id: payment.body.provider_payment_id }).first();
    expect(row).toMatchObject({ status: 'paid', sequence_type: 'first' });
    return row.provider_mandate_id as string;
  }

  it('When the merchant has not allowed it (the default), then the running subscription keeps its mandate', async () => {
    const running = await subscribe(t, token, { email: 'store-off@example.nl' });
    const newMandate = await checkoutBy(running.customerId);
    expect(newMandate).not.toBe(running.mandateId);
    expect(await t.ctx.db('subscriptions').where({ id: running.subscriptionId }).first()).toMatchObject({
      provider_mandate_id: running.mandateId,
    });
    expect(await t.ctx.db('sandbox_mandates').where({ id: running.mandateId }).first()).toMatchObject({ status: 'valid' });
  });

  it('When the merchant allows it, then the checkout’s mandate takes over the running subscription; the old one is revoked', async () => {
    const refused = await cli(t.ctx, 'accounts', 'set-takeover', '--account', accountName, '--store-checkout', 'maybe');
    expect(refused.code).not.toBe(0);
    const set = await cli(t.ctx, 'accounts', 'set-takeover', '--account', accountName, '--store-checkout', 'on');
    expect(set.code).toBe(0);
    expect(set.out.join('\n')).toContain('takes over');

    const running = await subscribe(t, token, { email: 'store-on@example.nl' });
    const newMandate = await checkoutBy(running.customerId);
    const subscriptions = await t.ctx.db('subscriptions').where({ customer_id: running.customerId }).orderBy('id');
    expect(subscriptions).toHaveLength(2);
    for (const subscription of subscriptions) expect(subscription.provider_mandate_id).toBe(newMandate);
    expect(await t.ctx.db('sandbox_mandates').where({ id: running.mandateId }).first()).toMatchObject({ status: 'invalid' });
    expect(await t.ctx.db('mandates').where({ id: running.mandateId }).first()).toMatchObject({ status: 'invalid' });

    expect((await cli(t.ctx, 'accounts', 'set-takeover', '--account', accountName, '--store-checkout', 'off')).code).toBe(0);
    const later = await subscribe(t, token, { email: 'store-later@example.nl' });
    await checkoutBy(later.customerId);
    expect(await t.ctx.db('subscriptions').where({ id: later.subscriptionId }).first()).toMatchObject({
      provider_mandate_id: later.mandateId,
    });
  });
});

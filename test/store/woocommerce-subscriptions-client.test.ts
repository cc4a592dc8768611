import { wooCommerce } from '../../src/integrations/woocommerce/platform';
import type { StoreClient } from '../../src/integrations/platform';
import { WooSimulator } from '../../fakes/woocommerce/simulator';

const MOLLIE = { _mollie_customer_id: 'cst_8wmqcHMN4U', _mollie_mandate_id: 'mdt_pWUnw6pkBN', _mollie_payment_id: 'tr_WDqYK6vllg' };

/** WooCommerce Subscriptions' subscriptions read and handed over through the store contract, against the simulator over HTTP. */
describe("the store's subscriptions (WooCommerce Subscriptions)", () => {
  let store: WooSimulator;
  let client: StoreClient;

  beforeEach(async () => {
    store = new WooSimulator();
    await store.start();
    client = wooCommerce.client(
      { url: store.url, consumerKey: store.consumerKey, consumerSecret: store.consumerSecret },
      { allowPrivate: true },
    );
  });
  afterEach(() => store.stop());

  it('When paid through Mollie, then a subscription reads with schedule, amount, subscriber, Mollie customer and mandate', async () => {
    const id = store.addSubscription(
      { end_date_gmt: '2027-09-25T10:00:00', total: '18.15', total_tax: '3.15', billing_interval: '3' },
      MOLLIE,
    );
    const page = await client.listSubscriptions(1);
    expect(page).toMatchObject({ page: 1, totalPages: 1, total: 1, rejected: [] });
    expect(page.subscriptions).toEqual([
      {
        shopSubscriptionId: id,
        status: 'active',
        shopStatus: 'active',
        interval: 'month',
        intervalCount: 3,
        nextPaymentAt: '2026-12-25 10:00:00',
        lastPaymentAt: null,
        endAt: '2027-09-25 10:00:00',
        startAt: '2026-09-25 10:00:00',
        amountCents: 1815,
        taxCents: 315,
        currency: 'EUR',
        customer: {
          shopCustomerId: 2,
          email: 'anna@example.test',
          firstName: 'Anna',
          lastName: 'Jansen',
          organizationName: null,
          country: 'NL',
        },
        lines: [{ shopProductId: 14, variationId: null, name: 'Coffee of the month', quantity: 1, amount: 1500, tax: 0 }],
        paymentMethod: 'mollie_wc_gateway_directdebit',
        provider: 'mollie',
        requiresManualRenewal: false,
        providerCustomerId: 'cst_8wmqcHMN4U',
        providerMandateId: 'mdt_pWUnw6pkBN',
        parentShopOrderId: null,
        serviceSubscriptionId: null,
      },
    ]);
  });

  it('When subscriptions renew manually, use another gateway or lack Mollie meta, then each says so and none names a mandate', async () => {
    const manual = store.addSubscription({ requires_manual_renewal: true, payment_method: '' });
    const otherGateway = store.addSubscription({ payment_method: 'stripe' }, MOLLIE);
    const noMeta = store.addSubscription({ payment_method: 'mollie_wc_gateway_creditcard', status: 'on-hold' });
    const { subscriptions } = await client.listSubscriptions(1);
    const byId = new Map(subscriptions.map((subscription) => [subscription.shopSubscriptionId, subscription]));
    expect(byId.get(manual)).toMatchObject({ requiresManualRenewal: true, paymentMethod: null, provider: null, providerMandateId: null });
    // Left-over Mollie meta under another gateway is not the customer that gateway charges.
    expect(byId.get(otherGateway)).toMatchObject({
      paymentMethod: 'stripe',
      provider: null,
      providerCustomerId: null,
      providerMandateId: null,
    });
    expect(byId.get(noMeta)).toMatchObject({
      status: 'on_hold',
      shopStatus: 'on-hold',
      provider: 'mollie',
      providerCustomerId: null,
      providerMandateId: null,
    });
  });

  it('When the store has several pages of subscriptions, then each is read by its number, and an unusable record fails alone', async () => {
    const ids = Array.from({ length: 205 }, (_, index) => store.addSubscription({}, { _mollie_mandate_id: `mdt_${index}` }));
    const broken = ids[150] as number;
    (store.subscriptions.get(broken) as Record<string, unknown>).billing_period = 'fortnight';
    const pages = await Promise.all([1, 2, 3].map((page) => client.listSubscriptions(page)));
    expect(pages.map((page) => [page.page, page.totalPages, page.total, page.subscriptions.length])).toEqual([
      [1, 3, 205, 100],
      [2, 3, 205, 99],
      [3, 3, 205, 5],
    ]);
    expect(pages[1]?.rejected).toEqual([{ id: broken, error: expect.stringContaining('billing_period') }]);
    const read = pages.flatMap((page) => page.subscriptions.map((subscription) => subscription.shopSubscriptionId));
    expect(new Set(read).size).toBe(204);
    expect(store.requests.filter((request) => request.path.endsWith('/subscriptions')).map((request) => request.query.per_page)).toEqual([
      '100',
      '100',
      '100',
    ]);
    expect(await client.listSubscriptions(4)).toMatchObject({ totalPages: 3, subscriptions: [] });
  });

  it('When a subscription is handed to our gateway, then the store bills it no more: no renewal order at its next payment', async () => {
    const id = store.addSubscription({}, MOLLIE);
    // Before: the extension makes a renewal order for Mollie's gateway to charge.
    const before = store.addSubscription({}, MOLLIE);
    expect(store.runScheduledPayment(before)).not.toBeNull();

    const switched = await client.switchToOurGateway(id, 'sub_ours0001');
    expect(switched).toMatchObject({
      shopSubscriptionId: id,
      paymentMethod: 'rps',
      requiresManualRenewal: false,
      provider: null,
      serviceSubscriptionId: 'sub_ours0001',
    });
    expect(store.requests.at(-1)).toMatchObject({ method: 'PUT', path: `/wp-json/wc/v3/subscriptions/${id}` });
    expect(store.subscriptions.get(id)).toMatchObject({ payment_method: 'rps', requires_manual_renewal: false, status: 'active' });
    // Our subscription's id is kept on the store's in the same request: the plugin finds ours from the first moment.
    expect(store.subscriptions.get(id)?.meta_data).toEqual(
      expect.arrayContaining([expect.objectContaining({ key: '_rps_service_subscription_id', value: 'sub_ours0001' })]),
    );
    await expect(client.fetchSubscription(id)).resolves.toMatchObject({ serviceSubscriptionId: 'sub_ours0001', paymentMethod: 'rps' });
    expect(store.runScheduledPayment(id)).toBeNull();
    expect(store.subscriptions.get(id)).toMatchObject({ status: 'active' });
    // Handed over again (a rerun): the same end state.
    await expect(client.switchToOurGateway(id, 'sub_ours0001')).resolves.toMatchObject({
      paymentMethod: 'rps',
      requiresManualRenewal: false,
    });
  });

  // The real extension has made the subscription manual by the time it refuses.
  it('When the store refuses our gateway, then the switch fails as refused', async () => {
    store.switchableGateways.clear();
    const id = store.addSubscription({}, MOLLIE);
    await expect(client.switchToOurGateway(id, 'sub_ours0001')).rejects.toMatchObject({
      kind: 'refused',
      status: 400,
      message: expect.stringContaining('does not support admin changing the payment method'),
    });
    expect(store.subscriptions.get(id)).toMatchObject({ payment_method: '', requires_manual_renewal: true });
    await expect(client.switchToOurGateway(999_999, 'sub_ours0001')).rejects.toMatchObject({ status: 404 });
  });

  it("When a subscription's orders are asked for, then parent and renewal orders come with their relation and Mollie meta", async () => {
    const [parent] = store.addOrders(1, () => ({
      status: 'processing',
      payment_method: 'mollie_wc_gateway_ideal',
      meta_data: [
        { key: '_mollie_customer_id', value: 'cst_8wmqcHMN4U' },
        { key: '_mollie_mandate_id', value: 'mdt_pWUnw6pkBN' },
      ],
    })) as [number];
    const id = store.addSubscription({ parent_id: parent }, { _mollie_customer_id: 'cst_8wmqcHMN4U' });
    const [renewal] = store.addOrders(1, () => ({
      status: 'completed',
      meta_data: [{ key: '_subscription_renewal', value: String(id) }],
    })) as [number];
    expect((await client.listSubscriptions(1)).subscriptions[0]).toMatchObject({ parentShopOrderId: parent, providerMandateId: null });
    const orders = await client.subscriptionOrders(id);
    expect(orders).toEqual([
      {
        relation: 'parent',
        order: expect.objectContaining({ shopOrderId: parent, status: 'paid' }),
        shopStatus: 'processing',
        providerCustomerId: 'cst_8wmqcHMN4U',
        providerMandateId: 'mdt_pWUnw6pkBN',
      },
      {
        relation: 'renewal',
        order: expect.objectContaining({ shopOrderId: renewal, status: 'completed' }),
        shopStatus: 'completed',
        providerCustomerId: null,
        providerMandateId: null,
      },
    ]);
    expect(store.requests.at(-1)).toMatchObject({ method: 'GET', path: `/wp-json/wc/v3/subscriptions/${id}/orders` });
    await expect(client.subscriptionOrders(999_999)).rejects.toMatchObject({ status: 404 });
  });
});

import request from 'supertest';
import { processDueWebhookCalls } from '../../src/modules/payments/webhookCalls';
import { deliverDueEvents } from '../../src/events/delivery';
import { cli } from '../cli/runInMemory';
import { TEST_DATABASES } from '../support/databases';
import { useTestApp } from '../support/testApp';
import { useConnectedStore } from '../support/connectedStore';
import { paidStoreOrder } from '../support/storeCheckout';
import { startReceiver } from '../support/receiver';
import type { WooSimulator } from '../../fakes/woocommerce/simulator';

/**
 * WooCommerce Subscriptions sold with the plugin's gateway (docs/woocommerce.md, "With WooCommerce
 * Subscriptions"): the plugin names on the checkout order which of the extension's subscriptions holds
 * each line (`_rps_wcs_lines`); those lines become one Subscription here per subscription there, which
 * keeps its id (`shop_subscription_id`) and whose renewal orders are linked to it (`_subscription_renewal`).
 * A change the store mirrors back is applied once. The clock stands at 2026-11-21 10:00 UTC.
 */
describe.each(TEST_DATABASES)('WooCommerce Subscriptions subscriptions on %s', (kind) => {
  const t = useTestApp(kind, { perTest: true });
  const shop = useConnectedStore(t);
  let store: WooSimulator;
  let token: string;
  let accountId: string;
  let publicRef: string;

  beforeEach(async () => {
    ({ store, token, accountId } = shop);
    publicRef = (await t.ctx.db('accounts').where({ id: accountId }).first()).public_ref;
  });

  /**
   * A checkout of coffee (9.95) and tea (5.00), monthly, in the extension's subscription 501, and a
   * yearly box (50.00) in its subscription 502, with a one-time mug (7.50); paid.
   */
  async function checkoutOfTwoExtensionSubscriptions(lines: Record<string, number> | null): Promise<number> {
    const coffee = store.addSubscriptionProduct({ name: 'Coffee club', price: '9.95', period: 'month' });
    const tea = store.addSubscriptionProduct({ name: 'Tea club', price: '5.00', period: 'month' });
    const box = store.addSubscriptionProduct({ name: 'Yearly box', price: '50.00', period: 'year' });
    const [mug] = store.addProducts(1, () => ({ name: 'Mug', price: '7.50', regular_price: '7.50' })) as [number];
    const [shopOrderId] = store.addOrders(1, () => ({
      status: 'pending',
      total: '72.45',
      customer_id: 42,
      line_items: [
        { id: 11, product_id: coffee, quantity: 1, total: '9.95', subtotal: '9.95', subtotal_tax: '0.00' },
        { id: 12, product_id: tea, quantity: 1, total: '5.00', subtotal: '5.00', subtotal_tax: '0.00' },
        { id: 13, product_id: box, quantity: 1, total: '50.00', subtotal: '50.00', subtotal_tax: '0.00' },
        { id: 14, product_id: mug, quantity: 1, total: '7.50', subtotal: '7.50', subtotal_tax: '0.00' },
      ],
      meta_data: lines ? [{ key: '_rps_wcs_lines', value: JSON.stringify(lines) }] : [],
    })) as [number];
    await paidStoreOrder(t, token, shopOrderId, '72.45');
    return shopOrderId;
  }

  const subscriptionsHere = () => t.ctx.db('subscriptions').where({ account_id: accountId }).orderBy('created_at').orderBy('id');

  it(
    "When the plugin names each line's extension subscription, then each of the extension's subscriptions is one subscription here " +
      'with its lines, its amount and its id in the API',
    async () => {
      await checkoutOfTwoExtensionSubscriptions({ '11': 501, '12': 501, '13': 502 });
      const made = await subscriptionsHere();
      expect(made).toHaveLength(2);
      const byShop = new Map(made.map((row) => [Number(row.shop_subscription_id), row]));
      expect([...byShop.keys()].sort()).toEqual([501, 502]);

      const monthly = await t.as(token).get(`/api/v2/subscriptions/${byShop.get(501)?.id}`);
      expect(monthly.body).toMatchObject({
        shop_subscription_id: 501,
        next_payment_at: '2026-12-21',
        rules: [expect.objectContaining({ amount: '14.95', interval: 'month', interval_amount: 1 })],
      });
      expect(monthly.body.name).toContain('Coffee club, Tea club');
      const yearly = await t.as(token).get(`/api/v2/subscriptions/${byShop.get(502)?.id}`);
      expect(yearly.body).toMatchObject({
        shop_subscription_id: 502,
        next_payment_at: '2027-11-21',
        rules: [expect.objectContaining({ amount: '50.00', interval: 'year' })],
      });
    },
  );

  it('When the order names no extension subscription, then each recurring line is its own subscription, without its id', async () => {
    await checkoutOfTwoExtensionSubscriptions(null);
    const made = await subscriptionsHere();
    expect(made).toHaveLength(3);
    expect(made.map((row) => row.shop_subscription_id ?? null)).toEqual([null, null, null]);
    const res = await t.as(token).get(`/api/v2/subscriptions/${made[0].id}`);
    expect(res.status).toBe(200);
    expect(res.body).not.toHaveProperty('shop_subscription_id');
  });

  it(
    "When a charge of such a subscription is paid, then its renewal order is linked to the extension's subscription " +
      "(`_subscription_renewal`) with the service's next charge date",
    async () => {
      const shopOrderId = await checkoutOfTwoExtensionSubscriptions({ '11': 501, '12': 501, '13': 502 });
      expect((await cli(t.ctx, 'billing', 'run', '--date', '2026-12-21', '--force')).out[0]).toContain('1 charged');
      const charge = await t.ctx.db('payments').where({ account_id: accountId, purpose: 'charge', status: 'pending' }).first();
      await request(t.app).post(`/webhooks/mollie?account=${publicRef}`).type('form').send({ id: charge.provider_payment_id });
      await processDueWebhookCalls(t.ctx, new AbortController().signal);
      await t.ctx.background.idle();

      const renewals = [...store.orders.values()].filter((order) => order.parent_id === shopOrderId);
      expect(renewals).toHaveLength(1);
      const [renewal] = renewals;
      const monthly = (await subscriptionsHere()).find((row) => Number(row.shop_subscription_id) === 501);
      expect(renewal?.meta_data).toEqual(
        expect.arrayContaining([
          { key: '_subscription_renewal', value: '501' },
          { key: '_rps_subscription_id', value: monthly.id },
          { key: '_rps_next_payment_at', value: '2027-01-21' },
        ]),
      );
      expect(renewal?.line_items).toEqual([
        expect.objectContaining({ id: expect.any(Number), quantity: 1 }),
        expect.objectContaining({ id: expect.any(Number), quantity: 1 }),
      ]);
      expect(renewal?.status).toBe('processing');
    },
  );

  it(
    'When the store mirrors back a cancellation or a pause it heard of, then the subscription is unchanged and the plugin is not ' +
      'told again',
    async () => {
      const receiver = await startReceiver([200]);
      try {
        const shop = await t.as(token).get('/api/v2/shop');
        expect(shop.status).toBe(200);
        await t.ctx.db('shops').where({ account_id: accountId }).update({ callback_url: receiver.url });
        await checkoutOfTwoExtensionSubscriptions({ '11': 501, '12': 501, '13': 502 });
        const [monthly, yearly] = (await subscriptionsHere()).sort(
          (a, b) => Number(a.shop_subscription_id) - Number(b.shop_subscription_id),
        );

        const deliver = async () => {
          await deliverDueEvents(t.ctx, new AbortController().signal);
          await t.ctx.background.idle();
        };
        // Cancelled at the end of the paid period, then the same again (the extension's pending-cancel mirrored back).
        for (let time = 0; time < 2; time += 1) {
          const res = await t.as(token).delete(`/api/v2/subscriptions/${monthly.id}`).send({ cancel_at: '2026-12-21' });
          expect(res.status).toBe(200);
          expect(res.body).toMatchObject({ status: 'active', cancel_at: '2026-12-21' });
        }
        // Paused, then the same again; a cancel now, then again (already cancelled).
        for (let time = 0; time < 2; time += 1) {
          const res = await t.as(token).post(`/api/v2/subscriptions/${yearly.id}/pause`, {});
          expect(res.status).toBe(200);
          expect(res.body.status).toBe('paused');
        }
        for (let time = 0; time < 2; time += 1) {
          const res = await t.as(token).delete(`/api/v2/subscriptions/${yearly.id}`);
          expect(res.status).toBe(200);
          expect(res.body.status).toBe('cancelled');
        }
        await deliver();
        const told = receiver.calls.map((call) => JSON.parse(call.body) as { id: string; event: string });
        expect(told.map((body) => [body.id, body.event])).toEqual([
          [monthly.id, 'subscription.cancelled'],
          [yearly.id, 'subscription.paused'],
          [yearly.id, 'subscription.cancelled'],
        ]);
        // Another pause of a paused subscription (another date) is still refused.
        const other = await t.as(token).post(`/api/v2/subscriptions/${monthly.id}/pause`, {});
        expect(other.status).toBe(200);
        const again = await t.as(token).post(`/api/v2/subscriptions/${monthly.id}/pause`, { resume_at: '2027-03-01' });
        expect(again.status).toBe(422);
        expect(again.body.fields.status[0]).toContain('paused');
      } finally {
        await receiver.close();
      }
    },
  );
});

import { orderResponse } from '../../src/modules/orders/schemas';
import { TEST_DATABASES } from '../support/databases';
import { countQueries, seedCustomer, seedOrder, seedProduct, seedSubscription } from '../support/seed';
import { itBehavesLikeAPagedList } from '../support/pagedList';
import { useTestApp } from '../support/testApp';

describe.each(TEST_DATABASES)('orders on %s', (kind) => {
  const t = useTestApp(kind);
  let token: string;
  let accountId: string;

  beforeAll(async () => {
    ({ token, accountId } = await t.newAccount());
  });

  describe('GET /api/v2/orders/{id}', () => {
    it('When an order has every field and two lines, then it answers 200 with the order field by field', async () => {
      const beans = await seedProduct(t.ctx.db, accountId, { name: 'Beans', amount: 1995, shop_product_id: 3000000000 });
      const club = await seedProduct(t.ctx.db, accountId, {
        name: 'Coffee club',
        type: 'subscription',
        amount: 995,
        interval: 'month',
        interval_value: 1,
        times: 12,
      });
      const customer = await seedCustomer(t.ctx.db, accountId);
      const { subscription } = await seedSubscription(t.ctx.db, accountId, customer.id);
      const { order } = await seedOrder(
        t.ctx.db,
        accountId,
        [
          { product_id: beans.id, quantity: 2, next_order: null },
          { product_id: club.id, quantity: 1, next_order: '2026-12-21' },
        ],
        {
          status: 'completed',
          total_amount: 4985,
          order_number: '1001',
          first_name: 'Anna',
          last_name: 'de Vries',
          email: 'anna@example.nl',
          organization_name: 'Koffie BV',
          phone: '+31612345678',
          address: 'Oudegracht 1',
          postal_code: '3511 AA',
          city: 'Utrecht',
          country: 'NL',
          vat_number: 'NL123456789B01',
          carrier: 'PostNL',
          tracktrace: '3SABCD1234567',
          shop_order_id: 3000000001,
          shop_order_number: 'WC-1001',
          subscription_id: subscription.id,
          subscription_status: 'active',
          cancel_subscription_at: '2027-06-30',
          created_at: '2026-07-01 22:30:00',
        },
      );

      const res = await t.as(token).get(`/api/v2/orders/${order.id}`);
      expect(res.status).toBe(200);
      expect(orderResponse.strict().parse(res.body)).toEqual(res.body);
      expect(res.body).toEqual({
        id: order.id,
        status: 'completed',
        total_amount: '49.85',
        currency: 'EUR',
        // 22:30 UTC on 1 July is 00:30 the next day in Amsterdam (CEST).
        created_at: '2026-07-02 00:30:00',
        order_number: '1001',
        first_name: 'Anna',
        last_name: 'de Vries',
        email: 'anna@example.nl',
        organization_name: 'Koffie BV',
        phone: '+31612345678',
        address: 'Oudegracht 1',
        postal_code: '3511 AA',
        city: 'Utrecht',
        country: 'NL',
        vat_number: 'NL123456789B01',
        carrier: 'PostNL',
        tracktrace: '3SABCD1234567',
        shop_order_id: 3000000001,
        shop_order_number: 'WC-1001',
        subscription: subscription.id,
        subscription_status: 'active',
        cancel_subscription_at: '2027-06-30',
        products: [
          {
            quantity: 2,
            product: {
              id: beans.id,
              name: 'Beans',
              type: 'once',
              amount: '19.95',
              currency: 'EUR',
              interval: null,
              times: null,
              shop_product_id: 3000000000,
            },
            next_order: null,
          },
          {
            quantity: 1,
            product: {
              id: club.id,
              name: 'Coffee club',
              type: 'subscription',
              amount: '9.95',
              currency: 'EUR',
              interval: 'month',
              times: 12,
              shop_product_id: null,
            },
            next_order: '2026-12-21',
          },
        ],
      });
      // The nested product is the product resource itself.
      const product = await t.as(token).get(`/api/v2/products/${club.id}`);
      expect(res.body.products[1].product).toEqual(product.body);
    });

    it(
      'When an order has no buyer, shipping, shop or subscription data and no lines, then those fields are null and products is ' + 'empty',
      async () => {
        const { order } = await seedOrder(t.ctx.db, accountId, [], { status: 'unpaid', total_amount: 0 });
        const res = await t.as(token).get(`/api/v2/orders/${order.id}`);
        expect(res.status).toBe(200);
        expect(orderResponse.strict().parse(res.body)).toEqual(res.body);
        expect(res.body).toMatchObject({
          status: 'unpaid',
          total_amount: '0.00',
          first_name: null,
          email: null,
          country: null,
          carrier: null,
          tracktrace: null,
          shop_order_id: null,
          shop_order_number: null,
          subscription: null,
          subscription_status: null,
          cancel_subscription_at: null,
          products: [],
        });
      },
    );
  });

  describe('GET /api/v2/orders', () => {
    it('When a page holds 15 orders with two lines each, then it costs as many queries as a page with one order', async () => {
      const seedOrders = async (count: number) => {
        const account = await t.newAccount();
        for (let i = 0; i < count; i += 1) {
          const a = await seedProduct(t.ctx.db, account.accountId);
          const b = await seedProduct(t.ctx.db, account.accountId);
          await seedOrder(t.ctx.db, account.accountId, [
            { product_id: a.id, quantity: 1, next_order: null },
            { product_id: b.id, quantity: 2, next_order: null },
          ]);
        }
        return account.token;
      };
      const one = await seedOrders(1);
      const fifteen = await seedOrders(15);
      const queriesForOne = await countQueries(t.ctx.db, () => t.as(one).get('/api/v2/orders').expect(200));
      let body: { data: Array<{ products: unknown[] }> } = { data: [] };
      const queriesForFifteen = await countQueries(t.ctx.db, async () => {
        body = (await t.as(fifteen).get('/api/v2/orders').expect(200)).body;
      });
      expect(body.data).toHaveLength(15);
      expect(body.data.every((order) => order.products.length === 2)).toBe(true);
      expect(queriesForOne).toBeGreaterThan(0);
      expect(queriesForFifteen).toBe(queriesForOne);
    });
  });

  describe('the paged list', () => {
    itBehavesLikeAPagedList({
      app: () => t,
      path: '/api/v2/orders',
      plural: 'orders',
      item: orderResponse,
      seed: async (app, account, index) => {
        const product = await seedProduct(app.ctx.db, account);
        return (await seedOrder(app.ctx.db, account, [{ product_id: product.id, quantity: index + 1, next_order: null }])).order.id;
      },
      notFound: 'Order not found',
      unknownId: 'ord_doesnotexist0000',
    });

    it('When orders are listed, then each carries its lines exactly as reading it by id does', async () => {
      const own = await t.newAccount();
      const product = await seedProduct(t.ctx.db, own.accountId);
      for (let i = 0; i < 3; i += 1)
        await seedOrder(t.ctx.db, own.accountId, [{ product_id: product.id, quantity: i + 1, next_order: null }]);
      const list = await t.as(own.token).get('/api/v2/orders');
      expect(list.body.data.map((o: { products: Array<{ quantity: number }> }) => o.products[0]?.quantity)).toEqual([1, 2, 3]);
      for (const order of list.body.data) expect(order).toEqual((await t.as(own.token).get(`/api/v2/orders/${order.id}`)).body);
    });
  });
});

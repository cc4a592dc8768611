import request from 'supertest';
import { pagedEnvelopeSchema } from '../../src/http/pagination';
import { orderResponse } from '../../src/modules/orders/schemas';
import { TEST_DATABASES } from '../support/databases';
import { countQueries, seedCustomer, seedOrder, seedProduct, seedSubscription } from '../support/seed';
import { createTestApp, TEST_PUBLIC_URL, type TestApp } from '../support/testApp';

describe.each(TEST_DATABASES)('orders on %s', (kind) => {
  let t: TestApp;
  let token: string;
  let accountId: string;

  beforeAll(async () => {
    t = await createTestApp(kind);
    ({ token, accountId } = await t.newAccount());
  });
  afterAll(() => t.close());

  const envelope = pagedEnvelopeSchema(orderResponse.strict()).strict();
  const path = `${TEST_PUBLIC_URL}/api/v2/orders`;
  const idsOf = (body: { data: Array<{ id: string }> }) => body.data.map((order) => order.id);

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

    it('When an order has no buyer, shipping, shop or subscription data and no lines, then those fields are null and products is empty', async () => {
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
    });

    it('When the id belongs to another account, then it answers 404 exactly like an unknown id', async () => {
      const other = await t.newAccount();
      const { order } = await seedOrder(t.ctx.db, other.accountId, []);
      const foreign = await t.as(token).get(`/api/v2/orders/${order.id}`);
      const unknown = await t.as(token).get('/api/v2/orders/ord_doesnotexist0000');
      expect(foreign.status).toBe(404);
      expect(foreign.body).toEqual({ status: 404, error: 'Order not found', code: 'not_found' });
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual(foreign.body);
    });
  });

  describe('GET /api/v2/orders', () => {
    it('When an account has 31 orders, then pages 1, 2, 3 and 4 carry the documented envelope', async () => {
      const own = await t.newAccount();
      const product = await seedProduct(t.ctx.db, own.accountId);
      const ids: string[] = [];
      for (let i = 0; i < 31; i += 1) {
        const { order } = await seedOrder(t.ctx.db, own.accountId, [{ product_id: product.id, quantity: i + 1, next_order: null }], {
          order_number: `${2000 + i}`,
        });
        ids.push(order.id);
      }
      const page1 = await t.as(own.token).get('/api/v2/orders');
      expect(page1.status).toBe(200);
      expect(envelope.parse(page1.body)).toEqual(page1.body);
      expect(idsOf(page1.body)).toEqual(ids.slice(0, 15));
      expect(page1.body.data[0]).toEqual((await t.as(own.token).get(`/api/v2/orders/${ids[0]}`)).body);
      expect(page1.body.data.map((o: { products: Array<{ quantity: number }> }) => o.products[0]?.quantity)).toEqual(
        Array.from({ length: 15 }, (_, i) => i + 1),
      );
      expect(page1.body.links).toEqual({ first: `${path}?page=1`, last: `${path}?page=3`, prev: '', next: `${path}?page=2` });
      expect(page1.body.meta).toEqual({ current_page: 1, last_page: 3, per_page: 15, total: 31, from: 1, to: 15, path });

      const page2 = await t.as(own.token).get('/api/v2/orders?page=2');
      expect(idsOf(page2.body)).toEqual(ids.slice(15, 30));
      expect(page2.body.links).toEqual({ first: `${path}?page=1`, last: `${path}?page=3`, prev: `${path}?page=1`, next: `${path}?page=3` });
      expect(page2.body.meta).toEqual({ current_page: 2, last_page: 3, per_page: 15, total: 31, from: 16, to: 30, path });

      const page3 = await t.as(own.token).get('/api/v2/orders?page=3');
      expect(idsOf(page3.body)).toEqual(ids.slice(30));
      expect(page3.body.links).toEqual({ first: `${path}?page=1`, last: `${path}?page=3`, prev: `${path}?page=2`, next: '' });
      expect(page3.body.meta).toEqual({ current_page: 3, last_page: 3, per_page: 15, total: 31, from: 31, to: 31, path });

      const past = await t.as(own.token).get('/api/v2/orders?page=4');
      expect(past.status).toBe(200);
      expect(past.body.data).toEqual([]);
      expect(past.body.meta).toEqual({ current_page: 4, last_page: 3, per_page: 15, total: 31, from: null, to: null, path });
    });

    it("When another account has orders, then they never appear in this account's list", async () => {
      const mine = await t.newAccount();
      const theirs = await t.newAccount();
      const { order } = await seedOrder(t.ctx.db, mine.accountId, []);
      await seedOrder(t.ctx.db, theirs.accountId, []);
      await seedOrder(t.ctx.db, theirs.accountId, []);
      const res = await t.as(mine.token).get('/api/v2/orders');
      expect(idsOf(res.body)).toEqual([order.id]);
      expect(res.body.meta).toMatchObject({ total: 1, last_page: 1 });
    });

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

    it.each([
      ['page=0', { page: ['The page field must be at least 1.'] }],
      ['page=abc', { page: ['The page field must be an integer.'] }],
      ['per_page=101', { per_page: ['The per page field must not be greater than 100.'] }],
    ])('When the query is %s, then it answers 422 naming the parameter', async (query, fields) => {
      const res = await t.as(token).get(`/api/v2/orders?${query}`);
      expect(res.status).toBe(422);
      expect(res.body).toEqual({ status: 422, error: 'Could not list orders. Some parameters are invalid', code: 'validation_failed', fields });
    });
  });

  describe('authentication', () => {
    it.each(['/api/v2/orders', '/api/v2/orders/ord_doesnotexist0000'])('When GET %s has no token, then it answers 401', async (url) => {
      const res = await request(t.app).get(url);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({
        status: 401,
        error: 'Unauthenticated: send a valid token as "Authorization: Bearer <token>"',
        code: 'unauthenticated',
      });
    });

    it.each(['/api/v2/orders', '/api/v2/orders/ord_doesnotexist0000'])('When GET %s has an unknown token, then it answers 401', async (url) => {
      const res = await request(t.app).get(url).set('Authorization', 'Bearer rps_notarealtoken');
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ status: 401, error: 'Unauthenticated: the token is unknown or revoked', code: 'unauthenticated' });
    });
  });
});

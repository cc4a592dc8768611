import request from 'supertest';
import { productResponse } from '../../src/modules/products/schemas';
import { TEST_DATABASES } from '../support/databases';
import { seedProduct } from '../support/seed';
import { itBehavesLikeAPagedList } from '../support/pagedList';
import { useTestApp, TEST_PUBLIC_URL } from '../support/testApp';

const CREATE_FAILED = 'Could not create product. Some fields contain invalid data';

describe.each(TEST_DATABASES)('products on %s', (kind) => {
  const t = useTestApp(kind);
  let token: string;

  beforeAll(async () => {
    ({ token } = await t.newAccount());
  });

  const once = { type: 'once', name: 'Coffee beans 1 kg', amount: 12.5, vat: 9 };
  const monthly = { type: 'subscription', name: 'Coffee club', amount: 9.95, vat: 21, interval: 'month', interval_value: 1 };

  const storedRow = (id: string) => t.ctx.db('products').where({ id }).first();
  const expect422 = async (body: object, fields: Record<string, string[]>) => {
    const res = await t.as(token).post('/api/v2/products', body);
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ status: 422, error: CREATE_FAILED, code: 'validation_failed', fields });
  };

  describe('POST /api/v2/products', () => {
    it('When a one-off product is valid, then it answers 201 with exactly the product fields', async () => {
      const res = await t.as(token).post('/api/v2/products', once);
      expect(res.status).toBe(201);
      expect(productResponse.strict().parse(res.body)).toEqual(res.body);
      expect(res.body).toEqual({
        id: expect.stringMatching(/^prd_[0-9A-Za-z]{16}$/),
        name: 'Coffee beans 1 kg',
        type: 'once',
        amount: '12.50',
        currency: 'EUR',
        interval: null,
        times: null,
        shop_product_id: null,
      });
    });

    it(
      'When a store product is created a second time, then 422 says its shop product id is taken; another account may use ' + 'it',
      async () => {
        const first = await t.as(token).post('/api/v2/products', { ...monthly, shop_platform_product_id: 4100 });
        expect(first.status).toBe(201);
        const again = await t.as(token).post('/api/v2/products', { ...monthly, shop_platform_product_id: 4100 });
        expect(again.status).toBe(422);
        expect(again.body).toEqual({
          status: 422,
          error: 'Could not create product. Some fields contain invalid data',
          fields: { shop_platform_product_id: ['The shop platform product id has already been taken.'] },
          code: 'validation_failed',
        });
        const other = await t.newAccount();
        expect((await t.as(other.token).post('/api/v2/products', { ...monthly, shop_platform_product_id: 4100 })).status).toBe(201);
      },
    );

    it(
      'When a subscription product is valid, then it answers 201 with interval, times and shop product id, and stores vat and ' +
        'interval value',
      async () => {
        const res = await t.as(token).post('/api/v2/products', { ...monthly, times: 12, shop_platform_product_id: 3000000000 });
        expect(res.status).toBe(201);
        expect(res.body).toEqual({
          id: expect.stringMatching(/^prd_/),
          name: 'Coffee club',
          type: 'subscription',
          amount: '9.95',
          currency: 'EUR',
          interval: 'month',
          times: 12,
          shop_product_id: 3000000000,
        });
        expect(await storedRow(res.body.id)).toMatchObject({ vat_basis_points: 2100, interval_value: 1, amount: 995 });
      },
    );

    it('When vat has two decimals, then it is kept exactly in basis points', async () => {
      const res = await t.as(token).post('/api/v2/products', { ...once, vat: 5.25 });
      expect(res.status).toBe(201);
      expect(await storedRow(res.body.id)).toMatchObject({ vat_basis_points: 525 });
    });

    it.each([
      ['days', 'day'],
      ['weeks', 'week'],
      ['months', 'month'],
      ['years', 'year'],
      ['day', 'day'],
      ['year', 'year'],
    ])('When the interval is %p, then it is accepted and answered as %p', async (sent, answered) => {
      const res = await t.as(token).post('/api/v2/products', { ...monthly, interval: sent, interval_value: 2 });
      expect(res.status).toBe(201);
      expect(res.body.interval).toBe(answered);
      expect(await storedRow(res.body.id)).toMatchObject({ interval: answered, interval_value: 2 });
    });

    it('When shipping costs are free, then an amount of 0 is accepted', async () => {
      const res = await t.as(token).post('/api/v2/products', { type: 'shipping_costs', name: 'Free shipping', amount: 0, vat: 21 });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ type: 'shipping_costs', amount: '0.00', interval: null });
    });

    it('When a one-off product sends interval and interval value as null, then it is accepted', async () => {
      const res = await t.as(token).post('/api/v2/products', { ...once, interval: null, interval_value: null, times: null });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ interval: null, times: null });
    });

    it.each(['type', 'name', 'amount', 'vat'])('When %s is missing, then it answers 422 naming that field', async (field) => {
      const body: Record<string, unknown> = { ...once };
      delete body[field];
      await expect422(body, { [field]: [`The ${field} field is required.`] });
    });

    it('When the body is empty, then every required field is named at once', async () => {
      await expect422(
        {},
        {
          type: ['The type field is required.'],
          name: ['The name field is required.'],
          amount: ['The amount field is required.'],
          vat: ['The vat field is required.'],
        },
      );
    });

    it.each([
      ['type', 'monthly', 'The selected type is invalid.'],
      ['interval', 'fortnight', 'The selected interval is invalid.'],
      ['interval', 'Month', 'The selected interval is invalid.'],
    ])('When %s is %p, then it answers 422 saying the selected value is invalid', async (field, value, message) => {
      await expect422({ ...monthly, [field]: value }, { [field]: [message] });
    });

    it('When type is subscription without interval and interval value, then both are required', async () => {
      await expect422(
        { type: 'subscription', name: 'Club', amount: 5, vat: 21 },
        {
          interval: ['The interval field is required when type is subscription.'],
          interval_value: ['The interval value field is required when type is subscription.'],
        },
      );
    });

    it('When type is subscription and only interval value is missing, then only interval value is named', async () => {
      await expect422(
        { ...monthly, interval_value: null },
        {
          interval_value: ['The interval value field is required when type is subscription.'],
        },
      );
    });

    it('When another field is invalid as well, then the subscription rule is still reported in the same answer', async () => {
      await expect422(
        { type: 'subscription', amount: 5, vat: 21 },
        {
          name: ['The name field is required.'],
          interval: ['The interval field is required when type is subscription.'],
          interval_value: ['The interval value field is required when type is subscription.'],
        },
      );
    });

    it.each([
      ['once', 'interval', 'month'],
      ['once', 'interval_value', 1],
      ['shipping_costs', 'interval', 'week'],
    ])('When type is %s and %s is given, then it answers 422: only subscriptions have an interval', async (type, field, value) => {
      await expect422(
        { ...once, type, [field]: value },
        {
          [field]: [`The ${field.replace('_', ' ')} field is prohibited unless type is subscription.`],
        },
      );
    });

    it.each([
      ['an amount with 3 decimals', { amount: 12.345 }, { amount: ['The amount field must have at most 2 decimals.'] }],
      // A tolerance relative to the amount once let these through as "1000.00" and "12345.68".
      ['a large amount with 3 decimals', { amount: 1000.001 }, { amount: ['The amount field must have at most 2 decimals.'] }],
      ['a larger amount with 3 decimals', { amount: 12345.678 }, { amount: ['The amount field must have at most 2 decimals.'] }],
      ['a negative amount', { amount: -5 }, { amount: ['The amount field must be at least 0.'] }],
      ['an amount of 0', { amount: 0 }, { amount: ['The amount field must be greater than 0.'] }],
      ['an amount as a string', { amount: '12.50' }, { amount: ['The amount field must be a number.'] }],
      ['a negative vat', { vat: -1 }, { vat: ['The vat field must be at least 0.'] }],
      ['a vat above 100', { vat: 100.01 }, { vat: ['The vat field must not be greater than 100.'] }],
      ['a vat with 3 decimals', { vat: 21.125 }, { vat: ['The vat field must have at most 2 decimals.'] }],
      ['a vat of 21.005', { vat: 21.005 }, { vat: ['The vat field must have at most 2 decimals.'] }],
      ['times 0', { times: 0 }, { times: ['The times field must be at least 1.'] }],
      ['times 1.5', { times: 1.5 }, { times: ['The times field must be an integer.'] }],
      [
        'a shop product id of 0',
        { shop_platform_product_id: 0 },
        { shop_platform_product_id: ['The shop platform product id field must be at least 1.'] },
      ],
      ['an empty name', { name: '' }, { name: ['The name field is required.'] }],
    ])('When a one-off product has %s, then it answers 422 naming the field', async (_case, change, fields) => {
      await expect422({ ...once, ...change }, fields);
    });

    it('When a subscription product has an interval value of 0, then it answers 422', async () => {
      await expect422({ ...monthly, interval_value: 0 }, { interval_value: ['The interval value field must be at least 1.'] });
    });

    it('When a subscription product has an amount of 0, then it answers 422: only shipping costs may be free', async () => {
      await expect422({ ...monthly, amount: 0 }, { amount: ['The amount field must be greater than 0.'] });
    });
  });

  describe('GET /api/v2/products/{id}', () => {
    it('When the product exists, then it answers 200 with the same fields as the create', async () => {
      const created = await t.as(token).post('/api/v2/products', { ...monthly, times: 3 });
      const res = await t.as(token).get(`/api/v2/products/${created.body.id}`);
      expect(res.status).toBe(200);
      expect(productResponse.strict().parse(res.body)).toEqual(created.body);
    });
  });

  describe('GET /api/v2/products', () => {
    const path = `${TEST_PUBLIC_URL}/api/v2/products`;

    it('When per_page is given, then pages have that size and the links keep it', async () => {
      const own = await t.newAccount();
      const ids: string[] = [];
      for (let i = 0; i < 31; i += 1) ids.push((await t.as(own.token).post('/api/v2/products', { ...once, name: `P${i}` })).body.id);
      const small = await t.as(own.token).get('/api/v2/products?page=2&per_page=10');
      expect(small.body.data.map((p: { id: string }) => p.id)).toEqual(ids.slice(10, 20));
      expect(small.body.data[0]).toEqual((await t.as(own.token).get(`/api/v2/products/${ids[10]}`)).body);
      expect(small.body.links).toEqual({
        first: `${path}?page=1&per_page=10`,
        last: `${path}?page=4&per_page=10`,
        prev: `${path}?page=1&per_page=10`,
        next: `${path}?page=3&per_page=10`,
      });
    });

    itBehavesLikeAPagedList({
      app: () => t,
      path: '/api/v2/products',
      plural: 'products',
      item: productResponse,
      seed: async (app, account, index) => (await seedProduct(app.ctx.db, account, { name: `P${index}` })).id,
      notFound: 'Product not found',
      unknownId: 'prd_doesnotexist0000',
    });
  });

  describe('OpenAPI', () => {
    it('When the document is read, then the create body and the product response are described', async () => {
      const res = await request(t.app).get('/api/v2/openapi.json');
      const post = res.body.paths['/api/v2/products'].post;
      const body = post.requestBody.content['application/json'].schema;
      expect(body.required).toEqual(['type', 'name', 'amount', 'vat']);
      expect(body.properties.type.enum).toEqual(['once', 'subscription', 'shipping_costs']);
      expect(body.properties.interval.enum).toEqual(expect.arrayContaining(['day', 'days', 'year', 'years']));
      const answer = post.responses['201'].content['application/json'].schema;
      expect(Object.keys(answer.properties).sort()).toEqual([
        'amount',
        'currency',
        'id',
        'interval',
        'name',
        'shop_product_id',
        'times',
        'type',
      ]);
      expect(res.body.paths['/api/v2/products/{id}'].get['x-extension']).toBe(true);
    });
  });

  describe('authentication', () => {
    const calls: Array<[string, (client: ReturnType<typeof request>) => request.Test]> = [
      ['GET /api/v2/products', (client) => client.get('/api/v2/products')],
      ['GET /api/v2/products/{id}', (client) => client.get('/api/v2/products/prd_doesnotexist0000')],
      ['POST /api/v2/products', (client) => client.post('/api/v2/products').send(once)],
    ];

    it.each(calls)('When %s has no token, then it answers 401', async (_name, call) => {
      const res = await call(request(t.app));
      expect(res.status).toBe(401);
      expect(res.body).toEqual({
        status: 401,
        error: 'Unauthenticated: send a valid token as "Authorization: Bearer <token>"',
        code: 'unauthenticated',
      });
    });

    it.each(calls)('When %s has an unknown token, then it answers 401', async (_name, call) => {
      const res = await call(request(t.app)).set('Authorization', 'Bearer rps_notarealtoken');
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ status: 401, error: 'Unauthenticated: the token is unknown or revoked', code: 'unauthenticated' });
    });

    it('When a create has an unknown token, then no product is stored', async () => {
      const count = async () => Number((await t.ctx.db('products').count({ n: '*' }))[0]?.n);
      const before = await count();
      await request(t.app).post('/api/v2/products').set('Authorization', 'Bearer rps_notarealtoken').send(once);
      expect(await count()).toBe(before);
    });
  });
});

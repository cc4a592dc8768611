import type { Server } from 'node:http';
import v8 from 'node:v8';
import vm from 'node:vm';
import fc from 'fast-check';
import request from 'supertest';
import { apiRoutes } from '../../src/modules';
import { TEST_DATABASES } from '../support/databases';
import { awkwardStrings, expectDocumentedAnswer, fieldNamesOf, garbageBodies, type KnownIds } from '../support/fuzz';
import { createTestApp, type TestApp } from '../support/testApp';
import { expectCleanAudit } from '../support/audit';

const REQUESTS = 10_000;
/** What the heap may keep after the run, once garbage is collected: caches fill, nothing grows per request. */
const HEAP_GROWTH_ALLOWED_MB = 40;

v8.setFlagsFromString('--expose-gc');
const collectGarbage = vm.runInNewContext('gc') as () => void;

// 10,000 requests on each database.
jest.setTimeout(240_000);

/** Every operation of the API and the service's other doors, with its method. */
const doors = [
  ...apiRoutes.flatMap((route) => route.methods.map((method) => ({ method, path: route.path, fields: fieldNamesOf(route.body) }))),
  { method: 'post' as const, path: '/webhooks/mollie', fields: ['id'] },
  { method: 'post' as const, path: '/webhooks/woocommerce/:ref', fields: ['id', 'status'] },
  { method: 'get' as const, path: '/pay/:id', fields: [] },
  { method: 'post' as const, path: '/pay/:id', fields: ['email', 'first_name'] },
  { method: 'get' as const, path: '/healthz', fields: [] },
  { method: 'get' as const, path: '/metrics', fields: [] },
  { method: 'get' as const, path: '/api/v2/openapi.json', fields: [] },
];

const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'application/x-www-form-urlencoded',
  'text/plain',
  'application/xml',
  'multipart/form-data; boundary=x',
  'application/json; charset=latin1',
  '',
  'garbage/\u00ff',
];

/**
 * 10,000 requests with fuzzed paths, queries, headers and bodies across every door of the service:
 * none is answered 5xx, every error has the documented shape, the process keeps answering, and
 * the heap is back near where it started once the garbage is collected.
 */
describe.each(TEST_DATABASES)('fuzzed requests on %s', (kind) => {
  let t: TestApp;
  let server: Server;
  let token: string;
  let ids: KnownIds;

  beforeAll(async () => {
    t = await createTestApp(kind, { env: { RATE_LIMIT_PER_MINUTE: '100000' } });
    ({ token } = await t.newAccount());
    const customer = await t.as(token).post('/api/v2/customers', { first_name: 'Anna', last_name: 'de Vries', email: 'anna@example.nl' });
    const mandate = await t
      .as(token)
      .post(`/api/v2/customers/${customer.body.id}/mandates`, { consumer_name: 'Anna de Vries', consumer_account: 'NL91ABNA0417164300' });
    ids = { customerId: customer.body.id, providerCustomerId: customer.body.provider_customer_id, mandateId: mandate.body.id };
    server = t.app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
  });
  afterAll(async () => {
    await expectCleanAudit(t.ctx);
    await new Promise((resolve) => server.close(resolve));
    await t.close();
  });

  const fuzzedRequest = () => {
    const door = fc.constantFrom(...doors);
    const pathPart = fc.oneof(
      { weight: 3, arbitrary: fc.constant(ids.customerId) },
      { weight: 2, arbitrary: awkwardStrings.map((text) => encodeURIComponent(text.slice(0, 300))) },
      fc.constantFrom('..', '%2e%2e', '%00', 'cus_' + 'x'.repeat(500)),
    );
    const query = fc.option(
      fc.dictionary(
        fc.constantFrom('page', 'per_page', 'email', 'account', 'full', '__proto__'),
        awkwardStrings.map((text) => text.slice(0, 200)),
        { maxKeys: 3 },
      ),
    );
    const authorization = fc.oneof(
      { weight: 4, arbitrary: fc.constant(`Bearer ${token}`) },
      fc.constant(undefined),
      fc.constantFrom('Bearer ', 'Basic YTpi', `Bearer ${token}x`, `bearer ${token}`, 'Bearer rps_' + 'A'.repeat(300)),
      awkwardStrings.map((text) => text.replace(/[^\t\x20-\x7e]/g, '').slice(0, 400)),
    );
    const headerText = awkwardStrings.map((text) => text.replace(/[^\t\x20-\x7e]/g, '').slice(0, 400));
    const body = fc.oneof(
      { weight: 3, arbitrary: garbageBodies(['name', 'email', 'amount', 'id'], ids).map((value) => JSON.stringify(value) ?? 'null') },
      awkwardStrings.map((text) => text.slice(0, 20_000)),
      fc.constantFrom('{', '{"a":', '[1,2', '\u0000', '{"amount": 1e999}', 'id=tr_abc', `{"${'a'.repeat(100)}": ${'['.repeat(500)}}`),
    );
    return fc.record({
      door,
      pathPart,
      query,
      authorization,
      contentType: fc.constantFrom(...CONTENT_TYPES),
      idempotencyKey: fc.option(headerText),
      requestId: fc.option(headerText),
      body,
    });
  };

  it('When 10,000 fuzzed requests reach every door, then none is a 5xx, every error is documented, and the heap comes back', async () => {
    const samples = fc.sample(fuzzedRequest(), { numRuns: REQUESTS, seed: 20261123 });
    const send = async (sample: (typeof samples)[number]) => {
      const path = sample.door.path.replace(/:\w+/g, sample.pathPart);
      const query = sample.query ? `?${new URLSearchParams(sample.query as Record<string, string>).toString()}` : '';
      let test = request(server)[sample.door.method](path + query);
      if (sample.authorization !== undefined) test = test.set('Authorization', sample.authorization);
      if (sample.contentType) test = test.set('Content-Type', sample.contentType);
      if (sample.idempotencyKey !== null) test = test.set('Idempotency-Key', sample.idempotencyKey);
      if (sample.requestId !== null) test = test.set('X-Request-Id', sample.requestId);
      const res = sample.door.method === 'get' ? await test : await test.send(sample.body);
      if (path.startsWith('/api/v2/') && path !== '/api/v2/openapi.json') expectDocumentedAnswer(res);
      else expect({ path, status: res.status }).toEqual({ path, status: expect.any(Number) });
      expect({ door: `${sample.door.method} ${sample.door.path}`, status: res.status < 500 }).toEqual({
        door: `${sample.door.method} ${sample.door.path}`,
        status: true,
      });
    };

    for (const sample of samples.slice(0, 500)) await send(sample); // warm-up: caches and pools fill
    await t.ctx.background.idle();
    collectGarbage();
    const baseline = process.memoryUsage().heapUsed;

    for (let start = 500; start < samples.length; start += 8) await Promise.all(samples.slice(start, start + 8).map(send));
    await t.ctx.background.idle();
    collectGarbage();
    const grownMb = (process.memoryUsage().heapUsed - baseline) / 1024 / 1024;
    expect(grownMb).toBeLessThan(HEAP_GROWTH_ALLOWED_MB);
    expect((await request(server).get('/healthz')).status).toBe(200);
  });
});

import request from 'supertest';
import { TEST_DATABASES } from '../support/databases';
import { useTestApp } from '../support/testApp';

const validCustomer = { first_name: 'Anna', last_name: 'de Vries', email: 'anna@example.nl' };

describe.each(TEST_DATABASES)('HTTP behaviour shared by every route on %s', (kind) => {
  const t = useTestApp(kind);
  let token: string;

  beforeAll(async () => {
    ({ token } = await t.newAccount());
  });

  describe('request bodies', () => {
    it('When a JSON body is over 1 MB, then it answers 413 with the error body', async () => {
      const body = JSON.stringify({ ...validCustomer, notes: 'x'.repeat(1024 * 1024) });
      const res = await t.as(token).post('/api/v2/customers').set('Content-Type', 'application/json').send(body);
      expect(res.status).toBe(413);
      expect(res.body).toEqual({ status: 413, error: 'The request body is larger than 1 MB', code: 'payload_too_large' });
    });

    it('When a JSON body is just under 1 MB, then it is read and the request is served', async () => {
      const body = JSON.stringify({ ...validCustomer, notes: 'x'.repeat(1000 * 1000) });
      const res = await t.as(token).post('/api/v2/customers').set('Content-Type', 'application/json').send(body);
      expect(res.status).toBe(201);
    });

    it.each([
      ['POST', 'text/plain', JSON.stringify(validCustomer)],
      ['POST', 'application/x-www-form-urlencoded', 'first_name=Anna&last_name=de+Vries&email=anna%40example.nl'],
      ['PUT', 'text/plain', JSON.stringify({ last_name: 'Jansen' })],
      ['PUT', 'application/x-www-form-urlencoded', 'last_name=Jansen'],
    ])('When a %s carries a %s body, then it answers 415 and changes nothing', async (method, contentType, body) => {
      const created = await t.as(token).post('/api/v2/customers', validCustomer);
      const before = await t.ctx.db('customers').count({ n: '*' });
      const path = method === 'POST' ? '/api/v2/customers' : `/api/v2/customers/${created.body.id}`;
      const client = t.as(token);
      const res = await (method === 'POST' ? client.post(path) : client.put(path)).set('Content-Type', contentType).send(body);
      expect(res.status).toBe(415);
      expect(res.body).toEqual({
        status: 415,
        error: 'Unsupported content type: send the body as application/json',
        code: 'unsupported_media_type',
      });
      expect(await t.ctx.db('customers').count({ n: '*' })).toEqual(before);
      expect((await t.as(token).get(`/api/v2/customers/${created.body.id}`)).body.last_name).toBe('de Vries');
    });

    it('When the JSON is malformed, then it answers 400 with the error body', async () => {
      const res = await t.as(token).post('/api/v2/customers').set('Content-Type', 'application/json').send('{"first_name": "Anna",');
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ status: 400, error: 'The request body is not valid JSON', code: 'malformed_json' });
    });

    it('When a POST has no body at all, then it is validated as an empty object (422)', async () => {
      const res = await t.as(token).post('/api/v2/customers');
      expect(res.status).toBe(422);
      expect(Object.keys(res.body.fields).sort()).toEqual(['email', 'first_name', 'last_name']);
    });
  });

  describe('unknown routes', () => {
    it.each([
      ['GET', '/api/v2/nothing-here'],
      ['DELETE', '/api/v2/customers'],
      ['POST', '/api/v2/customers/abc/nothing'],
    ])('When %s %s is not a route, then it answers 404 JSON', async (method, path) => {
      const client = t.as(token);
      const res = await (method === 'GET' ? client.get(path) : method === 'DELETE' ? client.delete(path) : client.post(path, {}));
      expect(res.status).toBe(404);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.body).toEqual({ status: 404, error: `No route for ${method} ${path}`, code: 'route_not_found' });
    });

    it('When a path outside /api/v2 is not a route, then it answers 404 JSON without asking for a token', async () => {
      const res = await request(t.app).get('/api/v1/customers');
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ status: 404, error: 'No route for GET /api/v1/customers', code: 'route_not_found' });
    });
  });

  describe('request ids', () => {
    it('When no X-Request-Id is sent, then one is generated, returned and logged with the request', async () => {
      const res = await t.as(token).get('/api/v2/customers');
      const id = res.headers['x-request-id'];
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      const again = await t.as(token).get('/api/v2/customers');
      expect(again.headers['x-request-id']).not.toBe(id);
      expect(t.logs.lines.filter((line) => line.includes(id))).toHaveLength(1);
    });

    it('When an X-Request-Id is sent, then it is echoed and appears in the log line of the request', async () => {
      const res = await t.as(token).get('/api/v2/customers').set('X-Request-Id', 'shop-42.retry:1');
      expect(res.headers['x-request-id']).toBe('shop-42.retry:1');
      const line = t.logs.lines.find((entry) => entry.includes('shop-42.retry:1'));
      expect(JSON.parse(line ?? '{}')).toMatchObject({
        requestId: 'shop-42.retry:1',
        method: 'GET',
        path: '/api/v2/customers',
        status: 200,
      });
    });

    it('When the X-Request-Id sent is not a sane id, then a new one replaces it', async () => {
      const res = await t.as(token).get('/api/v2/customers').set('X-Request-Id', 'x'.repeat(200));
      expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      expect(t.logs.lines.join('\n')).not.toContain('x'.repeat(200));
    });
  });

  describe('logs', () => {
    it('When requests carry a token, an IBAN, a secret and personal data, then no log line contains them', async () => {
      const iban = 'NL91ABNA0417164300';
      const secret = 'live_doNotLogThisProviderKey1234567890';
      const customer = await t
        .as(token)
        .post('/api/v2/customers', { ...validCustomer, email: 'private.person@example.nl', api_key: secret });
      const mandate = await t
        .as(token)
        .post(`/api/v2/customers/${customer.body.id}/mandates`, { consumer_name: 'Anna de Vries', consumer_account: iban });
      expect(mandate.status).toBe(201);
      // A body that fails validation, and one that is not JSON, go through the error paths.
      await t.as(token).post(`/api/v2/customers/${customer.body.id}/mandates`, { consumer_account: iban, consumer_name: 42 });
      await t.as(token).post('/api/v2/customers').set('Content-Type', 'application/json').send(`{"consumer_account": "${iban}"`);
      await request(t.app).get('/api/v2/customers').set('Authorization', `Bearer ${token}x`);
      const logs = t.logs.lines.join('\n');
      expect(t.logs.lines.length).toBeGreaterThan(0);
      expect(logs).not.toContain(token.slice('rps_'.length));
      expect(logs).not.toContain(iban);
      expect(logs).not.toContain(secret);
      expect(logs).not.toContain('private.person@example.nl');
      expect(logs).not.toContain('Anna de Vries');
    });
  });

  describe('/healthz', () => {
    it('When the database answers, then /healthz answers 200 {status: "ok"} without a token', async () => {
      const res = await request(t.app).get('/healthz');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ status: 'ok' });
    });
  });
});

describe.each(TEST_DATABASES)('rate limit per token on %s', (kind) => {
  const t = useTestApp(kind, { env: { RATE_LIMIT_PER_MINUTE: '3' } });

  it(
    'When a token makes a 4th request in one minute, then it answers 429 with Retry-After; others and the next minute are ' + 'served',
    async () => {
      t.clock.set('2026-11-21T10:00:15Z');
      const limited = await t.newAccount();
      const other = await t.newAccount();

      for (const remaining of ['2', '1', '0']) {
        const res = await t.as(limited.token).get('/api/v2/customers');
        expect(res.status).toBe(200);
        expect(res.headers['x-ratelimit-limit']).toBe('3');
        expect(res.headers['x-ratelimit-remaining']).toBe(remaining);
      }

      t.clock.advance(20_000);
      const refused = await t.as(limited.token).get('/api/v2/customers');
      expect(refused.status).toBe(429);
      expect(refused.body).toEqual({ status: 429, error: expect.stringMatching(/Retry-After/), code: 'rate_limited' });
      // 10:00:35 → the window ends at 10:01:00.
      expect(refused.headers['retry-after']).toBe('25');
      expect(refused.headers['x-ratelimit-limit']).toBe('3');
      expect(refused.headers['x-ratelimit-remaining']).toBe('0');

      const otherToken = await t.as(other.token).get('/api/v2/customers');
      expect(otherToken.status).toBe(200);
      expect(otherToken.headers['x-ratelimit-remaining']).toBe('2');

      t.clock.set('2026-11-21T10:01:00Z');
      const nextMinute = await t.as(limited.token).get('/api/v2/customers');
      expect(nextMinute.status).toBe(200);
      expect(nextMinute.headers['x-ratelimit-remaining']).toBe('2');
    },
  );

  it('When two tokens belong to the same account, then each has its own limit', async () => {
    t.clock.set('2026-11-21T11:00:00Z');
    const first = await t.newAccount('Shared Limit Shop');
    const second = await t.newAccount('Shared Limit Shop');
    for (let i = 0; i < 3; i += 1) expect((await t.as(first.token).get('/api/v2/customers')).status).toBe(200);
    expect((await t.as(first.token).get('/api/v2/customers')).status).toBe(429);
    expect((await t.as(second.token).get('/api/v2/customers')).status).toBe(200);
  });
});

describe.each(TEST_DATABASES)('failures of the database on %s', (kind) => {
  const t = useTestApp(kind);
  let token: string;

  beforeAll(async () => {
    ({ token } = await t.newAccount());
    await t.ctx.db.destroy();
  });

  it('When the database is gone, then /healthz answers 503', async () => {
    const res = await request(t.app).get('/healthz');
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ status: 'unavailable', error: 'The database does not answer' });
  });

  it('When an unexpected error happens, then it answers 500 with a request id and no stack, and logs the details', async () => {
    const res = await t.as(token).get('/api/v2/customers').set('X-Request-Id', 'req-500');
    expect(res.status).toBe(500);
    expect(res.body).toEqual({
      status: 500,
      error: 'Internal server error; quote the request id when reporting it',
      code: 'server_error',
      request_id: 'req-500',
    });
    expect(res.text).not.toMatch(/\bat\s|knex|sql|Error:/i);
    const logged = t.logs.lines
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .find((entry) => entry.message === 'unhandled error');
    expect(logged).toMatchObject({ level: 'error', requestId: 'req-500', path: '/api/v2/customers' });
    expect(JSON.stringify(logged)).not.toContain(token.slice('rps_'.length));
  });
});

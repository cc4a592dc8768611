import request from 'supertest';
import { createHash } from 'node:crypto';
import { TEST_DATABASES } from '../support/databases';
import { seedCustomer } from '../support/seed';
import { useTestApp, TEST_PUBLIC_URL } from '../support/testApp';

interface PortalSessionBody {
  id: string;
  customer_id: string;
  url: string;
  return_url: string | null;
  locale: string | null;
  expires_at: string;
  created_at: string;
}

/** `POST /api/v2/customers/{id}/portal-sessions` through HTTP; the clock stands at 2026-11-21 10:00 UTC (11:00 in Amsterdam). */
describe.each(TEST_DATABASES)('portal sessions through the API on %s', (kind) => {
  const t = useTestApp(kind);
  let token: string;
  let accountId: string;

  beforeAll(async () => {
    ({ token, accountId } = await t.newAccount());
    await t.ctx.db('accounts').where({ id: accountId }).update({ events_url: 'https://merchant.example/events' });
  });

  const create = (customerId: string, body: Record<string, unknown> = {}) =>
    t.as(token).post(`/api/v2/customers/${customerId}/portal-sessions`, body);

  it(
    'When a portal session is created, then it answers 201 with a single-use link under PUBLIC_URL, valid one hour, in the ' +
      'API’s time format',
    async () => {
      const customer = await seedCustomer(t.ctx.db, accountId);
      const res = await create(customer.id, { return_url: 'https://shop.example/account', locale: 'de' });
      expect(res.status).toBe(201);
      const body = res.body as PortalSessionBody;
      expect(body).toEqual({
        id: expect.stringMatching(/^ptk_/),
        customer_id: customer.id,
        url: expect.stringMatching(new RegExp(`^${TEST_PUBLIC_URL}/portal/session/[A-Za-z0-9_-]{43}$`)),
        return_url: 'https://shop.example/account',
        locale: 'de',
        expires_at: '2026-11-21 12:00:00',
        created_at: '2026-11-21 11:00:00',
      });
    },
  );

  it('When neither return_url nor locale is sent, then both are null and a body-less request is enough', async () => {
    const customer = await seedCustomer(t.ctx.db, accountId);
    const res = await t.as(token).post(`/api/v2/customers/${customer.id}/portal-sessions`);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ return_url: null, locale: null });
  });

  it('When locale is blank, then it counts as absent (as in the original service) and the document allows it', async () => {
    const customer = await seedCustomer(t.ctx.db, accountId);
    // The API suite checks every answer and every request taken against the OpenAPI document.
    const res = await create(customer.id, { locale: '' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ return_url: null, locale: null });
  });

  it.each([
    [{ return_url: 'javascript:alert(1)' }, 'return_url'],
    [{ return_url: 'ftp://shop.example/' }, 'return_url'],
    [{ return_url: 'not a url' }, 'return_url'],
    [{ locale: 'it' }, 'locale'],
    [{ locale: 42 }, 'locale'],
  ])('When the body is %j, then it answers 422 naming %s', async (body, field) => {
    const customer = await seedCustomer(t.ctx.db, accountId);
    const res = await create(customer.id, body);
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ status: 422, error: 'Could not create portal session. Some fields contain invalid data' });
    expect(Object.keys((res.body as { fields: Record<string, string[]> }).fields)).toEqual([field]);
  });

  it('When the customer is another account’s or does not exist, then it answers 404 and no link is made', async () => {
    const other = await t.newAccount();
    const theirs = await seedCustomer(t.ctx.db, other.accountId);
    for (const id of [theirs.id, 'cus_doesnotexist0000']) {
      const res = await create(id);
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ status: 404, error: 'Customer not found', code: 'not_found' });
    }
    expect(await t.ctx.db('portal_tokens').where({ customer_id: theirs.id }).count({ n: '*' })).toEqual([{ n: 0 }]);
  });

  it('When a link is made, then the database holds only its SHA-256, and the link’s use opens a session', async () => {
    const customer = await seedCustomer(t.ctx.db, accountId);
    const body = (await create(customer.id)).body as PortalSessionBody;
    const secret = body.url.split('/').pop() ?? '';
    const rows = await t.ctx.db('portal_tokens').where({ id: body.id });
    expect(rows).toMatchObject([
      {
        account_id: accountId,
        customer_id: customer.id,
        purpose: 'session-link',
        token_hash: createHash('sha256').update(secret).digest('hex'),
      },
    ]);
    expect(JSON.stringify(rows)).not.toContain(secret);
    const opened = await request(t.app).get(new URL(body.url).pathname);
    expect(opened.status).toBe(303);
    expect(opened.headers.location).toBe('/portal/');
  });

  it(
    'When a link is made, then portal.session_created goes to the account’s events endpoint with the customer’s id and no ' +
      'personal data',
    async () => {
      const customer = await seedCustomer(t.ctx.db, accountId, { email: 'maria@example.org', first_name: 'Maria' });
      const body = (await create(customer.id)).body as PortalSessionBody;
      const events = await t.ctx.db('outbound_events').where({ account_id: accountId, resource_id: body.id });
      expect(events.map((event: { event: string; payload: string }) => [event.event, JSON.parse(event.payload)])).toEqual([
        ['portal.session_created', { id: body.id, event: 'portal.session_created', customer_id: customer.id, via: 'api' }],
      ]);
      expect(events[0].payload).not.toMatch(/maria|session\//i);
    },
  );

  it('When the same Idempotency-Key is sent twice, then the link is not kept for a replay: each answer has a new one', async () => {
    const customer = await seedCustomer(t.ctx.db, accountId);
    const first = await create(customer.id).set('Idempotency-Key', 'portal-1');
    const second = await create(customer.id).set('Idempotency-Key', 'portal-1');
    expect([first.status, second.status]).toEqual([201, 201]);
    expect(second.headers['idempotent-replayed']).toBeUndefined();
    expect((second.body as PortalSessionBody).url).not.toBe((first.body as PortalSessionBody).url);
    const kept = await t.ctx.db('idempotency_keys').where({ account_id: accountId }).pluck('response_body');
    expect(kept.join('')).not.toContain('/portal/session/');
  });

  it('When OpenAPI is read, then the operation is documented as an extension with its body, answer and 404', async () => {
    const doc = (await request(t.app).get('/api/v2/openapi.json')).body as {
      paths: Record<string, Record<string, { operationId: string; 'x-extension'?: boolean; responses: Record<string, unknown> }>>;
    };
    const operation = doc.paths['/api/v2/customers/{customerId}/portal-sessions']?.post;
    expect(operation).toMatchObject({ operationId: 'createPortalSession', 'x-extension': true });
    expect(Object.keys(operation?.responses ?? {})).toEqual(expect.arrayContaining(['201', '404', '422']));
    expect(JSON.stringify(operation)).toContain('return_url');
  });
});

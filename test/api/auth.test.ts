import request from 'supertest';
import { revokeToken } from '../../src/modules/accounts/service';
import { TOKEN_DISPLAY_LENGTH } from '../../src/modules/accounts/tokens';
import { TEST_DATABASES } from '../support/databases';
import { useTestApp } from '../support/testApp';

describe.each(TEST_DATABASES)('authentication on %s', (kind) => {
  const t = useTestApp(kind);

  const unauthenticated = {
    status: 401,
    error: expect.stringMatching(/^Unauthenticated/),
    code: 'unauthenticated',
  };

  const withAuthorization = (value: string) => request(t.app).get('/api/v2/customers').set('Authorization', value);

  it('When no Authorization header is sent, then it answers 401 with the error body', async () => {
    const res = await request(t.app).get('/api/v2/customers');
    expect(res.status).toBe(401);
    expect(res.body).toEqual(unauthenticated);
    expect(res.headers['www-authenticate']).toBe('Bearer');
  });

  it('When a non-Bearer scheme is used, even with a valid token, then it answers 401', async () => {
    const { token } = await t.newAccount();
    for (const value of [`Basic ${Buffer.from(`${token}:`).toString('base64')}`, `Token ${token}`, token]) {
      const res = await withAuthorization(value);
      expect(res.status).toBe(401);
      expect(res.body).toEqual(unauthenticated);
    }
  });

  it.each([
    ['an empty bearer', 'Bearer '],
    ['a token without the rps_ prefix', 'Bearer abcdefghijklmnopqrstuvwxyz0123456789ABCD'],
    ['a too short token', 'Bearer rps_abc123'],
    ['a token with symbols', 'Bearer rps_abcdefghijklmnopqrstuvwxyz0123456789-_+/'],
    ['two tokens', 'Bearer rps_abcdefghijklmnopqrstuvwxyz0123456789ABCD rps_abcdefghijklmnopqrstuvwxyz0123456789ABCD'],
  ])('When the token is malformed (%s), then it answers 401', async (_case, value) => {
    const res = await withAuthorization(value);
    expect(res.status).toBe(401);
    expect(res.body).toEqual(unauthenticated);
  });

  it('When a well-formed token is unknown, then it answers 401', async () => {
    const res = await withAuthorization(`Bearer rps_${'A1b2C3d4E5'.repeat(4)}`);
    expect(res.status).toBe(401);
    expect(res.body).toEqual(unauthenticated);
  });

  it('When the token was revoked, then it answers 401 where it answered 200 before', async () => {
    const { token } = await t.newAccount();
    expect((await withAuthorization(`Bearer ${token}`)).status).toBe(200);
    await revokeToken(t.ctx.db, t.clock, token.slice(0, TOKEN_DISPLAY_LENGTH));
    const res = await withAuthorization(`Bearer ${token}`);
    expect(res.status).toBe(401);
    expect(res.body).toEqual(unauthenticated);
  });

  it('When the token is valid, then the scheme name is case-insensitive', async () => {
    const { token } = await t.newAccount();
    expect((await withAuthorization(`bearer ${token}`)).status).toBe(200);
  });

  it('When a token is used many times, then last_used_at is written at most once a minute', async () => {
    t.clock.set('2026-11-21T10:00:00Z');
    const { token } = await t.newAccount();
    const lastUsed = async () =>
      (
        await t.ctx
          .db('api_tokens')
          .where('prefix', token.slice(0, TOKEN_DISPLAY_LENGTH))
          .first<{ last_used_at: string | null }>('last_used_at')
      )?.last_used_at;
    expect(await lastUsed()).toBeNull();

    await t.as(token).get('/api/v2/customers');
    expect(await lastUsed()).toBe('2026-11-21 10:00:00');

    t.clock.advance(30_000);
    await t.as(token).get('/api/v2/customers');
    expect(await lastUsed()).toBe('2026-11-21 10:00:00');

    t.clock.advance(30_000);
    await t.as(token).get('/api/v2/customers');
    expect(await lastUsed()).toBe('2026-11-21 10:00:00');

    t.clock.advance(1_000);
    await t.as(token).get('/api/v2/customers');
    expect(await lastUsed()).toBe('2026-11-21 10:01:01');
  });

  describe('every endpoint of the spec', () => {
    // The twelve operations of docs/api.md, Endpoints, with real ids so that only the token decides.
    let customerId = '';
    const endpoints = (): Array<[string, 'get' | 'post' | 'put', string]> => [
      ['list payment links', 'get', '/api/v2/links'],
      ['list follow-ups', 'get', '/api/v2/follow-ups'],
      ['list orders', 'get', '/api/v2/orders'],
      ['list subscriptions', 'get', '/api/v2/subscriptions'],
      ['list customers', 'get', '/api/v2/customers'],
      ['list products', 'get', '/api/v2/products'],
      ['create subscription', 'post', '/api/v2/subscriptions'],
      ['create customer', 'post', '/api/v2/customers'],
      ['update customer', 'put', `/api/v2/customers/${customerId}`],
      ['create mandate', 'post', `/api/v2/customers/${customerId}/mandates`],
      ['create payment', 'post', '/api/v2/payments'],
      ['create product', 'post', '/api/v2/products'],
    ];
    let validToken = '';

    beforeAll(async () => {
      ({ token: validToken } = await t.newAccount());
      customerId = (await t.as(validToken).post('/api/v2/customers', { first_name: 'A', last_name: 'B', email: 'a@example.nl' })).body.id;
    });

    it('When any of the 12 operations is called without a token or with a bad one, then it answers 401 and changes nothing', async () => {
      expect(endpoints()).toHaveLength(12);
      const customersBefore = await t.ctx.db('customers').count({ n: '*' });
      for (const [, method, path] of endpoints()) {
        for (const authorization of [undefined, 'Bearer rps_unknownunknownunknownunknown00', `Basic ${validToken}`]) {
          const call = request(t.app)[method](path).send({ first_name: 'X', last_name: 'Y', email: 'x@example.nl' });
          const res = await (authorization ? call.set('Authorization', authorization) : call);
          expect({ method, path, status: res.status, body: res.body }).toEqual({ method, path, status: 401, body: unauthenticated });
        }
      }
      expect(await t.ctx.db('customers').count({ n: '*' })).toEqual(customersBefore);
    });

    it('When the same operations are called with the valid token, then none answers 401 (the control)', async () => {
      for (const [, method, path] of endpoints()) {
        const res = await request(t.app)[method](path).set('Authorization', `Bearer ${validToken}`).send({});
        expect({ method, path, status: res.status }).not.toEqual({ method, path, status: 401 });
      }
    });
  });
});

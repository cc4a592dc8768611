import request from 'supertest';
import { TEST_DATABASES } from '../support/databases';
import { useTestApp } from '../support/testApp';

const customer = { first_name: 'Anna', last_name: 'de Vries', email: 'anna@example.nl' };

describe.each(TEST_DATABASES)('production without a provider, on %s', (kind) => {
  const t = useTestApp(kind, { env: { NODE_ENV: 'production' } });

  it(
    'When an account without a Mollie key creates a customer, then it answers 503 naming what to configure and stores ' + 'nothing',
    async () => {
      const { accountId, token } = await t.newAccount();
      const res = await t.as(token).post('/api/v2/customers', customer);
      expect(res.status).toBe(503);
      expect(res.body).toEqual({
        status: 503,
        code: 'provider_not_configured',
        error: expect.stringContaining('set MOLLIE_API_KEY'),
        request_id: expect.any(String),
      });
      expect(res.body.error).toContain('cli accounts set-provider');
      expect(await t.ctx.db('customers').where({ account_id: accountId })).toEqual([]);
      expect(await t.ctx.db('sandbox_customers').where({ account_id: accountId })).toEqual([]);
    },
  );

  it('When the sandbox checkout is asked for, then it does not exist (no page to press "paid" on)', async () => {
    const page = await request(t.app).get('/sandbox/checkout/tr_abcdefghij');
    expect(page.status).toBe(404);
    expect(page.body.code).toBe('route_not_found');
    const press = await request(t.app).post('/sandbox/checkout/tr_abcdefghij').type('form').send({ status: 'paid' });
    expect(press.status).toBe(404);
    expect(press.body.code).toBe('route_not_found');
  });
});

describe.each(TEST_DATABASES)('production with SANDBOX=on, on %s', (kind) => {
  const t = useTestApp(kind, { env: { NODE_ENV: 'production', SANDBOX: 'on' } });

  it('When the operator turned the sandbox on on purpose, then customers go to the sandbox and its checkout is served', async () => {
    const { token } = await t.newAccount();
    const res = await t.as(token).post('/api/v2/customers', customer);
    expect(res.status).toBe(201);
    expect(res.body.provider_customer_id).toMatch(/^cst_/);
    const page = await request(t.app).get('/sandbox/checkout/tr_unknown0000');
    expect(page.status).toBe(404);
    expect(page.type).toBe('text/html');
  });
});

import request from 'supertest';
import { registerProviderAdapterForTests } from '../../src/providers';
import { cli } from '../cli/runInMemory';
import { TEST_DATABASES } from '../support/databases';
import { fakepay } from '../support/fakeProvider';
import { TEST_PUBLIC_URL, useTestApp } from '../support/testApp';

// Registered before any app of this file is made, through the registry's test hook: no module names it.
const fake = fakepay();
const unregister = registerProviderAdapterForTests(fake.adapter);
afterAll(() => unregister());

describe.each(TEST_DATABASES)('a second provider, known only to its adapter, on %s', (kind) => {
  const t = useTestApp(kind);

  it('When an account is set to it, then a payment is made through it and its webhook settles the payment', async () => {
    const name = `Fakepay Shop ${kind}`;
    const { accountId, token } = await t.newAccount(name);
    const set = await cli(t.ctx, 'accounts', 'set-provider', '--account', name, '--fakepay-token', 'fpt_secret1');
    expect(set).toEqual({ code: 0, out: [`Account "${name}" uses Fakepay with token fpt_se…`], err: [] });
    const shown = await cli(t.ctx, 'accounts', 'show', '--account', name);
    const publicRef = String((await t.ctx.db('accounts').where({ id: accountId }).first('public_ref')).public_ref);
    expect(shown.out).toEqual(
      expect.arrayContaining([
        'provider:             fakepay (token fpt_se…)',
        `provider webhook url: ${TEST_PUBLIC_URL}/webhooks/fakepay?account=${publicRef}`,
      ]),
    );

    const customer = await t.as(token).post('/api/v2/customers', { first_name: 'Fenna', last_name: 'Kok', email: 'fenna@example.nl' });
    expect(customer.status).toBe(201);
    expect(customer.body.provider_customer_id).toMatch(/^fpc_/);
    const created = await t.as(token).post('/api/v2/payments', {
      amount: 12.5,
      currency: 'EUR',
      provider_customer_id: customer.body.provider_customer_id,
      description: 'Order 2001',
      redirect_url: 'https://shop.example/thanks',
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ status: 'open', provider_payment_id: expect.stringMatching(/^fp_/) });
    const providerId = String(created.body.provider_payment_id);
    expect(fake.payments.get(providerId)).toMatchObject({
      token: 'fpt_secret1',
      webhookUrl: `${TEST_PUBLIC_URL}/webhooks/fakepay?account=${publicRef}`,
    });

    fake.payAtProvider(providerId);
    const call = await request(t.app)
      .post(`/webhooks/fakepay?account=${publicRef}`)
      .type('application/json')
      .send(fake.webhookBody(providerId));
    expect(call.status).toBe(200);
    await t.ctx.background.idle();

    const read = await t.as(token).get(`/api/v2/payments/${created.body.id}`);
    expect(read.body.status).toBe('paid');
    const [recorded] = await t.ctx
      .db('provider_webhook_calls')
      .where({ account_id: accountId })
      .select('provider', 'resource_id', 'processed_at');
    expect(recorded).toMatchObject({ provider: 'fakepay', resource_id: providerId, processed_at: expect.anything() });
  });

  it('When a call to its address is not one of its own, then it is answered 200 and nothing is recorded', async () => {
    const { accountId } = await t.newAccount();
    const publicRef = String((await t.ctx.db('accounts').where({ id: accountId }).first('public_ref')).public_ref);
    const call = await request(t.app).post(`/webhooks/fakepay?account=${publicRef}`).type('form').send('id=tr_abc');
    expect(call.status).toBe(200);
    expect(await t.ctx.db('provider_webhook_calls').where({ account_id: accountId })).toEqual([]);
  });

  it('When the pay pages are shown, then their forms may go on to its checkout', async () => {
    const res = await request(t.app).get('/pay/lnk_none');
    expect(res.headers['content-security-policy']).toContain('https://checkout.fakepay.test');
  });
});

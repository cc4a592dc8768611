import { MollieFake } from '../../fakes/mollie/fake';
import { serveWithNock } from '../../fakes/mollie/nock';
import { subscribe } from '../support/billing';
import { TEST_DATABASES } from '../support/databases';
import { billableAccountWithToken } from '../support/paidCharges';
import { useTestApp } from '../support/testApp';
import { LIMITS_WAIT_MS } from '../../src/providers/amountLimits';

/**
 * An amount above what the account's provider accepts for the method, or a currency the account cannot charge,
 * is refused when it is given (422 naming the maximum, or the currencies accepted), on every endpoint that takes
 * an amount — instead of 201 and a refusal at the checkout, or on the day of a charge. The sandbox reports its own
 * table (ideal 50,000.00, card 10,000.00, direct debit 1,000.00, bank transfer 1,000,000.00); a Mollie account
 * reports what Mollie's Methods API answers.
 */
describe.each(TEST_DATABASES)('amounts and currencies the provider would refuse, on %s', (kind) => {
  const t = useTestApp(kind);
  let token: string;
  let providerCustomerId: string;

  beforeAll(async () => {
    ({ token } = await t.newAccount());
    const customer = await t.as(token).post('/api/v2/customers', { first_name: 'Anna', last_name: 'de Vries', email: 'anna@example.nl' });
    expect(customer.status).toBe(201);
    providerCustomerId = customer.body.provider_customer_id ?? customer.body.id;
  });

  const payment = (fields: Record<string, unknown>) =>
    t.as(token).post('/api/v2/payments', {
      amount: 10,
      currency: 'EUR',
      provider_customer_id: providerCustomerId,
      description: 'Order 12',
      redirect_url: 'https://shop.example.nl/thanks',
      ...fields,
    });

  it('When a payment of 1,000,000,000,000.00 is asked for, then 422 names the most the account accepts, and nothing is made', async () => {
    const before = await t.ctx.db('payments').count({ n: '*' });
    const res = await payment({ amount: 1000000000000.0 });
    expect(res.status).toBe(422);
    expect(res.body.fields.amount).toEqual([
      'The amount may be at most EUR 1000000.00: the most that can be charged by any payment method of the account ' +
        '(banktransfer accepts the most).',
    ]);
    expect(await t.ctx.db('payments').count({ n: '*' })).toEqual(before);
  });

  it('When a payment names its method, then the limit is that method’s: 10,000.01 by card is refused, by iDEAL made', async () => {
    const card = await payment({ amount: 10000.01, method: 'creditcard' });
    expect(card.status).toBe(422);
    expect(card.body.fields.amount).toEqual(['The amount may be at most EUR 10000.00: the most that can be charged by creditcard.']);
    expect((await payment({ amount: 10000.0, method: 'creditcard' })).status).toBe(201);
    expect((await payment({ amount: 10000.01, method: 'ideal' })).status).toBe(201);
    const ideal = await payment({ amount: 50000.01, method: 'ideal' });
    expect(ideal.status).toBe(422);
    expect(ideal.body.fields.amount[0]).toContain('EUR 50000.00');
  });

  it('When a payment is in a currency the account cannot charge, then 422 names the currencies it accepts', async () => {
    const res = await payment({ currency: 'USD' });
    expect(res.status).toBe(422);
    expect(res.body.fields.currency).toEqual(['The account cannot charge USD; it accepts: EUR.']);
  });

  it('When an amount is beyond what cents can hold exactly, then 422 names the largest amount, not its decimals', async () => {
    const res = await payment({ amount: 1e15 });
    expect(res.status).toBe(422);
    expect(res.body.fields.amount).toEqual(['The amount field must be at most 90071992547409.91.']);
  });

  it('When a payment link asks for more than any method accepts, or another currency, then 422 names the limit', async () => {
    const link = (fields: Record<string, unknown>) =>
      t.as(token).post('/api/v2/links', { type: 'payment', amount: 10, description: 'Invoice 7', ...fields });
    const big = await link({ amount: 1000000000000.0 });
    expect(big.status).toBe(422);
    expect(big.body.fields.amount[0]).toContain('EUR 1000000.00');
    const usd = await link({ currency: 'USD' });
    expect(usd.status).toBe(422);
    expect(usd.body.fields.currency).toEqual(['The account cannot charge USD; it accepts: EUR.']);
    expect((await link({ amount: 1000000.0 })).status).toBe(201);
  });

  it('When a subscription’s rule is above what its direct-debit mandate takes, then 422 names that maximum', async () => {
    const { customerId, mandateId } = await subscribe(t, token);
    const create = (amount: number) =>
      t.as(token).post('/api/v2/subscriptions', {
        name: 'Big box',
        customer_id: customerId,
        provider_profile_id: 'pfl_test123456',
        provider_mandate_id: mandateId,
        start_date: '2026-12-01',
        rules: [
          { amount: 10, interval: 'month', interval_amount: 1, times: 1 },
          { amount, interval: 'month', interval_amount: 1 },
        ],
      });
    const res = await create(1000.01);
    expect(res.status).toBe(422);
    expect(res.body.fields).toEqual({
      'rules.1.amount': ['The amount may be at most EUR 1000.00: the most that can be charged by directdebit.'],
    });
    const made = await create(1000.0);
    expect(made.status).toBe(201);
    const patched = await t.as(token).patch(`/api/v2/subscriptions/${made.body.id}`, {
      rules: [{ amount: 1000000000000.0, interval: 'month', interval_amount: 1 }],
    });
    expect(patched.status).toBe(422);
    expect(patched.body.fields['rules.0.amount'][0]).toContain('EUR 1000.00');
  });

  it('When a product’s price is above what any method takes, then 422 names the limit', async () => {
    const product = (type: string, amount: number) =>
      t.as(token).post('/api/v2/products', {
        type,
        name: 'Gold bar',
        amount,
        vat: 0,
        ...(type === 'subscription' ? { interval: 'month', interval_value: 1 } : {}),
      });
    const once = await product('once', 1000000000000.0);
    expect(once.status).toBe(422);
    expect(once.body.fields.amount[0]).toContain('EUR 1000000.00');
    const monthly = await product('subscription', 10000.01);
    expect(monthly.status).toBe(422);
    expect(monthly.body.fields.amount[0]).toContain('EUR 10000.00');
    expect((await product('subscription', 10000.0)).status).toBe(201);
  });
});

describe.each(TEST_DATABASES)('amounts a Mollie account accepts, as Mollie’s Methods API answers them, on %s', (kind) => {
  const t = useTestApp(kind, { perTest: true });
  let fake: MollieFake;
  let served: { stop(): void };

  beforeEach(() => {
    fake = new MollieFake('https://api.mollie.com');
    served = serveWithNock(fake);
  });
  afterEach(() => served.stop());

  async function mollieAccount() {
    const { accountId, token } = await billableAccountWithToken(t, fake);
    const customer = await t.ctx.db('customers').where({ account_id: accountId }).first();
    return { token, providerCustomerId: String(customer.provider_customer_id) };
  }
  const payment = (token: string, providerCustomerId: string, fields: Record<string, unknown>) =>
    t.as(token).post('/api/v2/payments', {
      amount: 10,
      currency: 'EUR',
      provider_customer_id: providerCustomerId,
      description: 'Order 12',
      redirect_url: 'https://shop.example.nl/thanks',
      ...fields,
    });

  it('When Mollie answers a method’s maximumAmount, then that maximum is the limit, and nothing reaches Mollie above it', async () => {
    fake.methods = [{ id: 'ideal', minimum: '0.01', maximum: '2500.00', currencies: ['EUR'], sequenceTypes: ['oneoff', 'first'] }];
    const { token, providerCustomerId } = await mollieAccount();
    const made = fake.payments.size;
    const res = await payment(token, providerCustomerId, { amount: 1000000000000.0 });
    expect(res.status).toBe(422);
    expect(res.body.fields.amount).toEqual([
      'The amount may be at most EUR 2500.00: the most that can be charged by any payment method of the account (ideal accepts the most).',
    ]);
    expect(fake.payments.size).toBe(made);
    expect(fake.requests.some((request) => request.method === 'GET' && request.path.startsWith('/v2/methods'))).toBe(true);
    expect((await payment(token, providerCustomerId, { amount: 2500.0 })).status).toBe(201);
  });

  it('When Mollie’s Methods API cannot be reached, then the payment is still made, and the next one is checked again', async () => {
    fake.methods = [{ id: 'ideal', minimum: '0.01', maximum: '2500.00', currencies: ['EUR'], sequenceTypes: ['oneoff', 'first'] }];
    const { token, providerCustomerId } = await mollieAccount();
    fake.unreachable('GET', /^\/v2\/methods/);
    const made = fake.payments.size;
    expect((await payment(token, providerCustomerId, { amount: 100.0 })).status).toBe(201);
    expect(fake.payments.size).toBe(made + 1);
    // The failure is not kept as an answer: once Mollie answers, its maximum is applied.
    fake.heal();
    expect((await payment(token, providerCustomerId, { amount: 3000.0 })).status).toBe(422);
    expect(fake.payments.size).toBe(made + 1);
  });

  it('When Mollie’s Methods API does not answer, then the payment is still made within the limits’ wait, not held up', async () => {
    fake.methods = [{ id: 'ideal', minimum: '0.01', maximum: '2500.00', currencies: ['EUR'], sequenceTypes: ['oneoff', 'first'] }];
    const { token, providerCustomerId } = await mollieAccount();
    fake.stallRequests('GET', /^\/v2\/methods/, 1);
    const made = fake.payments.size;
    const started = Date.now();
    expect((await payment(token, providerCustomerId, { amount: 100.0 })).status).toBe(201);
    // Waited for the limits at most LIMITS_WAIT_MS (the Mollie client itself would wait far longer).
    expect(Date.now() - started).toBeLessThan(LIMITS_WAIT_MS + 5000);
    expect(fake.payments.size).toBe(made + 1);
    fake.releaseHeld();
  });

  it('When two accounts’ methods take different maximums, then each is held to its own, not to one kept for the other', async () => {
    fake.methods = [{ id: 'ideal', minimum: '0.01', maximum: '2500.00', currencies: ['EUR'], sequenceTypes: ['oneoff', 'first'] }];
    const small = await mollieAccount();
    expect((await payment(small.token, small.providerCustomerId, { amount: 3000.0 })).status).toBe(422);
    fake.methods = [{ id: 'ideal', minimum: '0.01', maximum: '5000.00', currencies: ['EUR'], sequenceTypes: ['oneoff', 'first'] }];
    const large = await mollieAccount();
    expect((await payment(large.token, large.providerCustomerId, { amount: 3000.0 })).status).toBe(201);
    expect((await payment(large.token, large.providerCustomerId, { amount: 5000.01 })).status).toBe(422);
  });

  it('When Mollie answers no maximum for a method (null), then any amount by it is passed on to Mollie', async () => {
    fake.methods = [{ id: 'banktransfer', minimum: '0.01', maximum: null, currencies: ['EUR'], sequenceTypes: ['oneoff'] }];
    const { token, providerCustomerId } = await mollieAccount();
    expect((await payment(token, providerCustomerId, { amount: 5000000.0 })).status).toBe(201);
  });
});

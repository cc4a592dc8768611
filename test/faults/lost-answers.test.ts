import { randomBase62 } from '../../src/ids';
import { finishStalledCreations } from '../../src/jobs/finishProviderCreations';
import { setProviderSettings } from '../../src/modules/accounts/providerSettings';
import { TEST_MOLLIE_KEY } from '../support/mollieNock';
import { TEST_DATABASES } from '../support/databases';
import { MollieFake } from '../../fakes/mollie/fake';
import { serveWithNock } from '../../fakes/mollie/nock';
import { useTestApp } from '../support/testApp';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

const customerBody = { first_name: 'Anna', last_name: 'de Vries', email: 'anna@example.nl' };

/**
 * The money path against a Mollie that does its work but whose answers do not arrive. Whatever is
 * lost, the client's retry with the same Idempotency-Key (or the job that finishes stalled creations)
 * ends with exactly one object at Mollie and one row here.
 */
describe.each(TEST_DATABASES)('lost answers from Mollie, on %s', (kind) => {
  const t = useTestApp(kind, { perTest: true, audited: true });
  let fake: MollieFake;
  let served: { stop(): void };

  // A database of its own per test: the job that finishes stalled creations works across accounts,
  // and these tests move the clock by hours and days.
  beforeEach(async () => {
    fake = new MollieFake('https://api.mollie.com');
    // The fake's idempotency window follows the test clock, as Mollie's follows real time.
    fake.now = () => t.clock.now().getTime();
    served = serveWithNock(fake);
  });
  afterEach(async () => {
    served.stop();
  });

  async function mollieAccount() {
    const name = `Lost answers ${randomBase62(8)}`;
    const { accountId, token } = await t.newAccount(name);
    await setProviderSettings(t.ctx, name, { mollieApiKey: TEST_MOLLIE_KEY, allowLive: false });
    return { accountId, token };
  }

  const post = (token: string, path: string, body: unknown, key?: string) => {
    const test = t.as(token).post(path, body);
    return key ? test.set('Idempotency-Key', key) : test;
  };

  async function accountWithCustomer() {
    const account = await mollieAccount();
    const customer = await post(account.token, '/api/v2/customers', customerBody);
    expect(customer.status).toBe(201);
    const payment = {
      amount: 25,
      currency: 'EUR',
      provider_customer_id: customer.body.provider_customer_id as string,
      description: 'Order 1001',
      redirect_url: 'https://shop.example/thanks',
    };
    return { ...account, payment };
  }

  const paymentsOf = (accountId: string) => t.ctx.db('payments').where({ account_id: accountId }).orderBy('seq');
  const creates = (path: RegExp) => fake.requests.filter((request) => request.method === 'POST' && path.test(request.path));

  describe('payments', () => {
    it(
      'When every answer to POST /v2/payments is lost, then the retry with the same Idempotency-Key gets the one payment Mollie ' + 'made',
      async () => {
        const { accountId, token, payment } = await accountWithCustomer();
        fake.loseAnswers('POST', /^\/v2\/payments/);

        const first = await post(token, '/api/v2/payments', payment, 'order-1001');
        expect(first.status).toBe(502);
        expect(first.body).toMatchObject({ status: 502, code: 'provider_unavailable' });
        const [kept] = await paymentsOf(accountId);
        expect(first.body.error).toContain(`payment ${kept.id} is kept`);
        expect(kept).toMatchObject({ status: 'creating', provider_payment_id: null, purpose: 'api' });
        expect(fake.paymentsWithReference(kept.id)).toHaveLength(1);

        // Still lost: Mollie answers the same key with the same payment, and makes no second one.
        const second = await post(token, '/api/v2/payments', payment, 'order-1001');
        expect(second.status).toBe(502);

        fake.heal();
        const third = await post(token, '/api/v2/payments', payment, 'order-1001');
        expect(third.status).toBe(201);
        const [made] = fake.paymentsWithReference(kept.id);
        expect(third.body).toEqual({
          id: kept.id,
          provider_payment_id: made?.id,
          status: 'open',
          provider_checkout_url: expect.stringContaining('mollie.com/checkout'),
        });
        expect(fake.payments.size).toBe(1);
        expect(await paymentsOf(accountId)).toHaveLength(1);
        expect(new Set(creates(/^\/v2\/payments/).map((request) => request.idempotencyKey))).toEqual(new Set([`payment-${kept.id}`]));
      },
    );

    it(
      'When the answer was lost and Mollie has forgotten the key (2 hours), then the retry finds the payment by our id and makes ' + 'none',
      async () => {
        const { accountId, token, payment } = await accountWithCustomer();
        fake.loseAnswers('POST', /^\/v2\/payments/, 1);
        expect((await post(token, '/api/v2/payments', payment, 'order-1002')).status).toBe(502);
        const [kept] = await paymentsOf(accountId);

        t.clock.advance(2 * HOUR);
        const retry = await post(token, '/api/v2/payments', payment, 'order-1002');
        expect(retry.status).toBe(201);
        expect(retry.body.id).toBe(kept.id);
        expect(fake.payments.size).toBe(1);
        expect(retry.body.provider_payment_id).toBe(fake.paymentsWithReference(kept.id)[0]?.id);
        expect(creates(/^\/v2\/payments/)).toHaveLength(1);
        expect(
          fake.requests.some(
            (request) => request.method === 'GET' && request.path.startsWith(`/v2/customers/${payment.provider_customer_id}/payments`),
          ),
        ).toBe(true);
      },
    );

    it('When the request never reached Mollie and its key has expired, then the retry creates the payment once', async () => {
      const { accountId, token, payment } = await accountWithCustomer();
      fake.unreachable('POST', /^\/v2\/payments/, 1);
      expect((await post(token, '/api/v2/payments', payment, 'order-1003')).status).toBe(502);
      expect(fake.payments.size).toBe(0);

      t.clock.advance(2 * HOUR);
      const retry = await post(token, '/api/v2/payments', payment, 'order-1003');
      expect(retry.status).toBe(201);
      expect(fake.payments.size).toBe(1);
      expect(await paymentsOf(accountId)).toHaveLength(1);
    });

    it(
      'When the client never retries, then the job finishes the payment with its own key, once, and tells the client by an ' + 'event',
      async () => {
        const { accountId, token, payment } = await accountWithCustomer();
        fake.loseAnswers('POST', /^\/v2\/payments/, 1);
        expect((await post(token, '/api/v2/payments', { ...payment, webhook_url: 'https://client.example/hooks' })).status).toBe(502);
        const [kept] = await paymentsOf(accountId);

        t.clock.advance(3 * MINUTE);
        const run = await finishStalledCreations(t.ctx, new AbortController().signal);
        expect(run).toEqual({ processed: 1, failed: 0 });
        const [finished] = await paymentsOf(accountId);
        expect(finished).toMatchObject({ id: kept.id, status: 'open', provider_payment_id: fake.paymentsWithReference(kept.id)[0]?.id });
        expect(fake.payments.size).toBe(1);
        const events = await t.ctx.db('outbound_events').where({ account_id: accountId, payment_id: kept.id });
        expect(events.map((event) => event.event)).toEqual(['payment.open']);

        // A second run finds nothing left to do.
        expect(await finishStalledCreations(t.ctx, new AbortController().signal)).toEqual({ processed: 0, failed: 0 });
      },
    );

    it(
      'When Mollie holds no such payment a day later, then the job gives it up as rejected and the settle hook hears it ' + 'once',
      async () => {
        const { accountId, token, payment } = await accountWithCustomer();
        const settled: string[] = [];
        t.ctx.settlements.on('invoices', ['api'], async (_trx, { payment: row, to }) => {
          if (row.account_id === accountId) settled.push(`${row.id}:${to}`);
        });
        fake.unreachable('POST', /^\/v2\/payments/, 1);
        expect((await post(token, '/api/v2/payments', payment)).status).toBe(502);
        const [kept] = await paymentsOf(accountId);

        t.clock.advance(25 * HOUR);
        expect(await finishStalledCreations(t.ctx, new AbortController().signal)).toEqual({ processed: 1, failed: 0 });
        const [given] = await paymentsOf(accountId);
        expect(given).toMatchObject({ status: 'rejected', failure_code: 'not_created' });
        expect(fake.payments.size).toBe(0);
        expect(settled).toEqual([`${kept.id}:rejected`]);
      },
    );

    it(
      'When Mollie refuses the payment (422), then the row is kept as rejected, the client gets the 422, and a retry with the key ' +
        'replays it',
      async () => {
        const { accountId, token, payment } = await accountWithCustomer();
        const refused = { ...payment, provider_customer_id: payment.provider_customer_id };
        fake.customers.clear(); // Mollie no longer knows the customer: it answers 422 on customerId
        const first = await post(token, '/api/v2/payments', refused, 'order-1004');
        expect(first.status).toBe(422);
        expect(first.body.code).toBe('provider_rejected');
        const [kept] = await paymentsOf(accountId);
        expect(kept).toMatchObject({ status: 'rejected', failure_code: 'provider_rejected', failure_reason: 'The customer id is invalid' });
        const again = await post(token, '/api/v2/payments', refused, 'order-1004');
        expect(again.headers['idempotent-replayed']).toBe('true');
        expect(again.text).toBe(first.text);
      },
    );
  });

  describe('customers', () => {
    it('When every answer to POST /v2/customers is lost, then the retry with the same key gets the one customer Mollie made', async () => {
      const { accountId, token } = await mollieAccount();
      fake.loseAnswers('POST', /^\/v2\/customers$/);
      const first = await post(token, '/api/v2/customers', customerBody, 'customer-anna');
      expect(first.status).toBe(502);
      const [kept] = await t.ctx.db('customers').where({ account_id: accountId });
      expect(kept.provider_customer_id).toBeNull();
      expect(first.body.error).toContain(`customer ${kept.id} is kept`);

      fake.heal();
      const retry = await post(token, '/api/v2/customers', customerBody, 'customer-anna');
      expect(retry.status).toBe(201);
      expect(retry.body.id).toBe(kept.id);
      expect(fake.customers.size).toBe(1);
      expect(retry.body.provider_customer_id).toBe(fake.customersWithReference(kept.id)[0]?.id);
      expect(await t.ctx.db('customers').where({ account_id: accountId })).toHaveLength(1);
    });

    it('When the answer was lost and Mollie has forgotten the key, then the job finds the customer by our id and makes none', async () => {
      const { accountId, token } = await mollieAccount();
      fake.loseAnswers('POST', /^\/v2\/customers$/, 1);
      expect((await post(token, '/api/v2/customers', customerBody)).status).toBe(502);
      t.clock.advance(2 * HOUR);
      expect(await finishStalledCreations(t.ctx, new AbortController().signal)).toEqual({ processed: 1, failed: 0 });
      const [finished] = await t.ctx.db('customers').where({ account_id: accountId });
      expect(fake.customers.size).toBe(1);
      expect(finished.provider_customer_id).toBe([...fake.customers.keys()][0]);
      expect(creates(/^\/v2\/customers$/)).toHaveLength(1);
    });
  });

  describe('mandates', () => {
    it(
      'When the answer to POST mandates is lost, then the retry with the same key finds the mandate by its reference and makes ' + 'none',
      async () => {
        const { accountId, token } = await mollieAccount();
        const customer = await post(token, '/api/v2/customers', customerBody);
        const body = { consumer_name: 'A. de Vries', consumer_account: 'NL91ABNA0417164300' };
        fake.loseAnswers('POST', /\/mandates$/, 1);
        const first = await post(token, `/api/v2/customers/${customer.body.id}/mandates`, body, 'mandate-anna');
        expect(first.status).toBe(502);
        expect(fake.mandates.size).toBe(1);

        t.clock.advance(2 * HOUR); // past Mollie's key window: only the reference can find it
        const retry = await post(token, `/api/v2/customers/${customer.body.id}/mandates`, body, 'mandate-anna');
        expect(retry.status).toBe(201);
        expect(retry.body.id).toBe([...fake.mandates.keys()][0]);
        expect(fake.mandates.size).toBe(1);
        expect(await t.ctx.db('mandates').where({ account_id: accountId })).toHaveLength(1);
      },
    );
  });
});

import { randomBase62 } from '../../src/ids';
import { setProviderSettings } from '../../src/modules/accounts/providerSettings';
import { TEST_DATABASES } from '../support/databases';
import { seedCustomer } from '../support/seed';
import { useTestApp, TEST_PUBLIC_URL } from '../support/testApp';
import {
  guardMollieNetwork,
  headerOf,
  mollie,
  mollieFixture,
  mollieListsMethods,
  TEST_MOLLIE_KEY,
  type MollieBody,
} from '../support/mollieNock';

guardMollieNetwork();

const VALID_IBAN = 'NL91ABNA0417164300';

interface Received {
  body: MollieBody;
  idempotencyKey: string | undefined;
}

type NockRequest = { req: { headers: Record<string, string | string[] | undefined> } };

function recorder(status: number, answer: MollieBody, received: Received[]) {
  return function (this: NockRequest, _uri: string, body: unknown): [number, MollieBody] {
    received.push({ body: (body ?? {}) as MollieBody, idempotencyKey: headerOf(this.req, 'Idempotency-Key') });
    return [status, answer];
  };
}

describe.each(TEST_DATABASES)('an account on Mollie, through the API, on %s', (kind) => {
  const t = useTestApp(kind);

  /** A new account whose own Mollie test key was set the way `accounts set-provider` sets it. */
  async function mollieAccount() {
    const name = `Mollie Shop ${randomBase62(8)}`;
    const { accountId, token } = await t.newAccount(name);
    await setProviderSettings(t.ctx, name, { mollieApiKey: TEST_MOLLIE_KEY, allowLive: false });
    const { public_ref: publicRef } = await t.ctx.db('accounts').where({ id: accountId }).first('public_ref');
    return { accountId, token, publicRef: String(publicRef) };
  }

  const trId = () => `tr_${randomBase62(10)}`;

  describe('customers', () => {
    it('When a customer is created, then Mollie is called with our key and the cst_ id is stored', async () => {
      const { accountId, token } = await mollieAccount();
      const received: Received[] = [];
      mollie()
        .post('/v2/customers')
        .reply(recorder(201, mollieFixture('customer'), received));

      const res = await t
        .as(token)
        .post('/api/v2/customers', { first_name: 'Jan', last_name: 'de Vries', email: 'jan@example.nl', locale: 'nl' });
      expect(res.status).toBe(201);
      expect(res.body.provider_customer_id).toBe('cst_8wmqcHMN4U');
      expect(received).toEqual([
        {
          body: { name: 'Jan de Vries', email: 'jan@example.nl', locale: 'nl_NL', metadata: { customer_id: res.body.id } },
          idempotencyKey: `customer-${res.body.id}`,
        },
      ]);
      const stored = await t.ctx.db('customers').where({ account_id: accountId, id: res.body.id }).first();
      expect(stored.provider_customer_id).toBe('cst_8wmqcHMN4U');
      expect(await t.ctx.db('sandbox_customers').where({ account_id: accountId })).toEqual([]);
    });

    it('When Mollie refuses the e-mail (422), then it answers 422 naming email and keeps no customer', async () => {
      const { accountId, token } = await mollieAccount();
      mollie()
        .post('/v2/customers')
        .reply(422, mollieFixture('error-422-payment', { detail: 'The email address is invalid', field: 'email' }));
      const res = await t.as(token).post('/api/v2/customers', { first_name: 'Jan', last_name: 'de Vries', email: 'jan@example.nl' });
      expect(res.status).toBe(422);
      expect(res.body).toEqual({
        status: 422,
        error: 'The payment provider refused the request: The email address is invalid',
        code: 'provider_rejected',
        fields: { email: ['The email address is invalid'] },
      });
      expect(await t.ctx.db('customers').where({ account_id: accountId })).toEqual([]);
    });

    it(
      'When a customer changes e-mail, then Mollie gets a PATCH; when nothing Mollie keeps changes, then Mollie is not ' + 'called',
      async () => {
        const { accountId, token } = await mollieAccount();
        const customer = await seedCustomer(t.ctx.db, accountId, {
          provider_customer_id: 'cst_8wmqcHMN4U',
          first_name: 'Jan',
          last_name: 'de Vries',
          email: 'jan@example.nl',
        });
        const received: Received[] = [];
        mollie()
          .patch('/v2/customers/cst_8wmqcHMN4U')
          .reply(recorder(200, mollieFixture('customer', { email: 'nieuw@example.nl' }), received));

        const changed = await t.as(token).put(`/api/v2/customers/${customer.id}`, { email: 'nieuw@example.nl' });
        expect(changed.status).toBe(200);
        expect(received.map((r) => r.body)).toEqual([
          { name: 'Jan de Vries', email: 'nieuw@example.nl', locale: 'nl_NL', metadata: { customer_id: customer.id } },
        ]);

        // Neither name, e-mail nor locale changes: no interceptor is set, so any call to Mollie fails the test.
        const unchanged = await t.as(token).put(`/api/v2/customers/${customer.id}`, { email: 'nieuw@example.nl', city: 'Utrecht' });
        expect(unchanged.status).toBe(200);
        expect(unchanged.body.city).toBe('Utrecht');
      },
    );
  });

  describe('mandates', () => {
    it('When a mandate is created, then Mollie gets the directdebit mandate with our key and its mdt_ id is stored', async () => {
      const { accountId, token } = await mollieAccount();
      const customer = await seedCustomer(t.ctx.db, accountId, { provider_customer_id: 'cst_8wmqcHMN4U' });
      const mandateId = `mdt_${randomBase62(10)}`;
      const received: Received[] = [];
      mollie()
        .post('/v2/customers/cst_8wmqcHMN4U/mandates')
        .reply(
          recorder(
            201,
            mollieFixture('mandate', {
              id: mandateId,
              details: { consumerName: 'A. de Vries', consumerAccount: VALID_IBAN, consumerBic: 'ABNANL2A' },
            }),
            received,
          ),
        );

      const res = await t
        .as(token)
        .post(`/api/v2/customers/${customer.id}/mandates`, { consumer_name: 'A. de Vries', consumer_account: VALID_IBAN });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        id: mandateId,
        method: 'directdebit',
        status: 'valid',
        details: { consumer_account: VALID_IBAN, consumer_bic: 'ABNANL2A' },
      });
      const stored = await t.ctx.db('mandates').where({ account_id: accountId, id: mandateId }).first();
      expect(received).toEqual([
        {
          body: {
            method: 'directdebit',
            consumerName: 'A. de Vries',
            consumerAccount: VALID_IBAN,
            signatureDate: '2026-11-21',
            mandateReference: stored.mandate_reference,
          },
          idempotencyKey: `mandate-${customer.id}-${stored.mandate_reference}`,
        },
      ]);
    });

    it('When Mollie refuses the IBAN (422 on consumerAccount), then it answers 422 naming consumer_account', async () => {
      const { accountId, token } = await mollieAccount();
      const customer = await seedCustomer(t.ctx.db, accountId, { provider_customer_id: 'cst_8wmqcHMN4U' });
      mollie().post('/v2/customers/cst_8wmqcHMN4U/mandates').reply(422, mollieFixture('error-422-mandate'));
      const res = await t
        .as(token)
        .post(`/api/v2/customers/${customer.id}/mandates`, { consumer_name: 'A. de Vries', consumer_account: VALID_IBAN });
      expect(res.status).toBe(422);
      expect(res.body.fields).toEqual({ consumer_account: ['The consumer account is invalid'] });
      expect(await t.ctx.db('mandates').where({ account_id: accountId })).toEqual([]);
    });
  });

  describe('payments', () => {
    const paymentBody = {
      amount: 12.5,
      currency: 'EUR',
      provider_customer_id: 'cst_8wmqcHMN4U',
      description: 'Order #12345',
      redirect_url: 'https://shop.example.nl/thanks',
      method: 'ideal',
    };

    it("When a payment is created, then it answers Mollie's tr_ id and checkout URL, and Mollie got our payment-<pay_id> key", async () => {
      const { accountId, token, publicRef } = await mollieAccount();
      await seedCustomer(t.ctx.db, accountId, { provider_customer_id: 'cst_8wmqcHMN4U' });
      const id = trId();
      const checkout = `https://www.mollie.com/checkout/select-method/${id.slice(3)}`;
      const received: Received[] = [];
      mollie()
        .post('/v2/payments')
        .reply(recorder(201, mollieFixture('payment-open', { id, _links: { checkout: { href: checkout, type: 'text/html' } } }), received));

      mollieListsMethods();

      const res = await t.as(token).post('/api/v2/payments', paymentBody);
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        id: expect.stringMatching(/^pay_/),
        provider_payment_id: id,
        status: 'open',
        provider_checkout_url: checkout,
      });
      expect(received).toEqual([
        {
          body: {
            amount: { currency: 'EUR', value: '12.50' },
            description: 'Order #12345',
            redirectUrl: 'https://shop.example.nl/thanks',
            webhookUrl: `${TEST_PUBLIC_URL}/webhooks/mollie?account=${publicRef}`,
            method: 'ideal',
            customerId: 'cst_8wmqcHMN4U',
            sequenceType: 'oneoff',
            metadata: { payment_id: res.body.id },
          },
          idempotencyKey: `payment-${res.body.id}`,
        },
      ]);
      const stored = await t.ctx.db('payments').where({ account_id: accountId, id: res.body.id }).first();
      expect(stored).toMatchObject({ provider_payment_id: id, checkout_url: checkout, status: 'open' });
    });

    it(
      "When a request names another provider_profile_id, then the payment goes to the account's own profile and that profile is " +
        'stored',
      async () => {
        const name = `Organization ${randomBase62(8)}`;
        const { accountId, token } = await t.newAccount(name);
        const accessToken = `access_${'Y'.repeat(40)}`;
        await setProviderSettings(t.ctx, name, { mollieApiKey: accessToken, profileId: 'pfl_AccountOwn', allowLive: false });
        await seedCustomer(t.ctx.db, accountId, { provider_customer_id: 'cst_8wmqcHMN4U' });
        const received: Received[] = [];
        mollie()
          .post('/v2/payments')
          .reply(recorder(201, mollieFixture('payment-open', { id: trId() }), received));

        mollieListsMethods();

        const res = await t.as(token).post('/api/v2/payments', { ...paymentBody, provider_profile_id: 'pfl_SomeoneElse' });
        expect(res.status).toBe(201);
        expect(received[0]?.body).toMatchObject({ profileId: 'pfl_AccountOwn' });
        const stored = await t.ctx.db('payments').where({ account_id: accountId, id: res.body.id }).first();
        expect(stored.provider_profile_id).toBe('pfl_AccountOwn');
      },
    );

    it(
      'When Mollie refuses the amount (422), then it answers 422 naming amount and keeps the payment as rejected with the ' + 'reason',
      async () => {
        const { accountId, token } = await mollieAccount();
        await seedCustomer(t.ctx.db, accountId, { provider_customer_id: 'cst_8wmqcHMN4U' });
        mollie().post('/v2/payments').reply(422, mollieFixture('error-422-payment'));
        mollieListsMethods();
        const res = await t.as(token).post('/api/v2/payments', paymentBody);
        expect(res.status).toBe(422);
        expect(res.body).toEqual({
          status: 422,
          error: 'The payment provider refused the request: The amount is lower than the minimum',
          code: 'provider_rejected',
          fields: { amount: ['The amount is lower than the minimum'] },
        });
        expect(
          await t.ctx
            .db('payments')
            .where({ account_id: accountId })
            .select('status', 'provider_payment_id', 'failure_code', 'failure_reason'),
        ).toEqual([
          {
            status: 'rejected',
            provider_payment_id: null,
            failure_code: 'provider_rejected',
            failure_reason: 'The amount is lower than the minimum',
          },
        ]);
      },
    );

    it("When Mollie refuses the account's key (401), then it answers the credentials error and never shows the key", async () => {
      const { accountId, token } = await mollieAccount();
      await seedCustomer(t.ctx.db, accountId, { provider_customer_id: 'cst_8wmqcHMN4U' });
      mollie().post('/v2/payments').reply(401, mollieFixture('error-401'));
      mollieListsMethods();
      const res = await t.as(token).post('/api/v2/payments', paymentBody);
      expect(res.status).toBe(502);
      expect(res.body).toEqual({
        status: 502,
        error:
          "The payment provider refused this account's Mollie credentials: the API key is wrong, revoked or lacks permission. The " +
          'account owner must set a valid key',
        code: 'provider_credentials_invalid',
        request_id: expect.any(String),
      });
      expect(JSON.stringify(res.body)).not.toContain(TEST_MOLLIE_KEY);
      expect(t.logs.lines.join('\n')).not.toContain(TEST_MOLLIE_KEY);
      // Mollie certainly made nothing: the payment is kept as rejected, never resumed.
      expect(await t.ctx.db('payments').where({ account_id: accountId }).select('status', 'failure_code')).toEqual([
        { status: 'rejected', failure_code: 'provider_credentials_invalid' },
      ]);
    });

    it('When Mollie keeps failing (500), then it answers a retryable 502 with a retry hint and keeps the payment to resume', async () => {
      const { accountId, token } = await mollieAccount();
      await seedCustomer(t.ctx.db, accountId, { provider_customer_id: 'cst_8wmqcHMN4U' });
      const keys: Array<string | undefined> = [];
      // Retry-After: 0 keeps the client's 2 s pause between its three attempts out of the test run.
      mollie()
        .post('/v2/payments')
        .times(3)
        .reply(function (this: NockRequest) {
          keys.push(headerOf(this.req, 'Idempotency-Key'));
          return [500, mollieFixture('error-500'), { 'Retry-After': '0' }];
        });
      mollieListsMethods();
      const res = await t.as(token).post('/api/v2/payments', paymentBody);
      expect(res.status).toBe(502);
      expect(res.body).toMatchObject({
        status: 502,
        code: 'provider_unavailable',
        error: expect.stringMatching(
          new RegExp(
            /^The payment provider did not confirm the request \(HTTP 500\); payment pay_\w+ is kept and will be completed, /.source +
              /never made twice: retry the request with the same Idempotency-Key in about 30 seconds$/.source,
          ),
        ),
      });
      // A 5xx may have been processed at Mollie: the row waits to be resumed with the same key.
      expect(await t.ctx.db('payments').where({ account_id: accountId }).select('status')).toEqual([{ status: 'creating' }]);
      expect(res.headers['retry-after']).toBe('30');
      expect(new Set(keys).size).toBe(1);
      expect(keys[0]).toMatch(/^payment-pay_/);
    });
  });
});

import { createLogger } from '../../src/logger';
import { ProviderUnavailableError } from '../../src/errors';
import {
  outcomeIsUnknown,
  ProviderCredentialsError,
  ProviderFailedError,
  ProviderNotFoundError,
  ProviderOutageError,
  ProviderRejectedError,
} from '../../src/providers/errors';
import { MollieProvider, type MollieCredentials } from '../../src/providers/mollie/provider';
import type { ProviderPaymentInput } from '../../src/providers/types';
import { MemoryTransport } from '../support/testApp';
import { guardMollieNetwork, headerOf, mollie, mollieFixture, TEST_MOLLIE_KEY, type MollieBody } from '../support/mollieNock';

guardMollieNetwork();

const logs = new MemoryTransport();
const logger = createLogger('debug');
logger.clear();
logger.add(logs);

const WEBHOOK_URL = 'https://rps.example.nl/webhooks/mollie?account=ref123';

function newProvider(options: { credentials?: MollieCredentials; timeoutMs?: number; onLocalWebhookUrl?: (url: string) => void } = {}) {
  return new MollieProvider({
    credentials: options.credentials ?? { kind: 'apiKey', apiKey: TEST_MOLLIE_KEY },
    apiUrl: null,
    logger,
    onLocalWebhookUrl: options.onLocalWebhookUrl ?? (() => undefined),
    timeoutMs: options.timeoutMs,
  });
}

const oneOff: ProviderPaymentInput = {
  amount: 1250,
  currency: 'EUR',
  description: 'Order #12345',
  sequenceType: 'oneoff',
  customerId: 'cst_8wmqcHMN4U',
  mandateId: null,
  method: 'ideal',
  redirectUrl: 'https://webshop.example.org/order/12345/',
  webhookUrl: WEBHOOK_URL,
  reference: 'pay_0001',
};

/** Records what Mollie received: the parsed body and the headers that matter here. */
interface Received {
  body: MollieBody;
  idempotencyKey: string | undefined;
  authorization: string | undefined;
}

function recorder(status: number, answer: MollieBody | (() => MollieBody), received: Received[], headers: Record<string, string> = {}) {
  return function (
    this: { req: { headers: Record<string, string | string[] | undefined> } },
    _uri: string,
    body: unknown,
  ): [number, MollieBody, Record<string, string>] {
    received.push({
      body: (typeof body === 'string' && body ? JSON.parse(body) : (body ?? {})) as MollieBody,
      idempotencyKey: headerOf(this.req, 'Idempotency-Key'),
      authorization: headerOf(this.req, 'Authorization'),
    });
    return [status, typeof answer === 'function' ? answer() : answer, headers];
  };
}

async function failureOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to fail');
}

describe('MollieProvider requests', () => {
  it('When a customer is created, then Mollie gets name, e-mail, its locale code, our reference and our idempotency key', async () => {
    const received: Received[] = [];
    mollie()
      .post('/v2/customers')
      .reply(recorder(201, mollieFixture('customer'), received));
    const created = await newProvider().createCustomer(
      { name: 'Jan de Vries', email: 'jan@example.nl', locale: 'nl', reference: 'cus_0001' },
      'customer-cus_0001',
    );
    expect(created).toEqual({ id: 'cst_8wmqcHMN4U' });
    expect(received).toEqual([
      {
        body: { name: 'Jan de Vries', email: 'jan@example.nl', locale: 'nl_NL', metadata: { customer_id: 'cus_0001' } },
        idempotencyKey: 'customer-cus_0001',
        authorization: `Bearer ${TEST_MOLLIE_KEY}`,
      },
    ]);
  });

  it.each([
    ['nl', 'nl_NL'],
    ['en', 'en_US'],
    ['fr', 'fr_FR'],
    ['de', 'de_DE'],
    ['es', 'es_ES'],
  ])('When the customer locale is %p, then Mollie gets %p', async (locale, mollieLocale) => {
    const received: Received[] = [];
    mollie()
      .post('/v2/customers')
      .reply(recorder(201, mollieFixture('customer'), received));
    await newProvider().createCustomer({ name: 'A B', email: 'a@example.nl', locale, reference: 'cus_1' }, 'customer-cus_1');
    expect(received[0]?.body.locale).toBe(mollieLocale);
  });

  it('When the customer has no locale, then no locale is sent', async () => {
    const received: Received[] = [];
    mollie()
      .post('/v2/customers')
      .reply(recorder(201, mollieFixture('customer'), received));
    await newProvider().createCustomer({ name: 'A B', email: 'a@example.nl', locale: null, reference: 'cus_2' }, 'customer-cus_2');
    expect(received[0]?.body).toEqual({ name: 'A B', email: 'a@example.nl', metadata: { customer_id: 'cus_2' } });
  });

  it('When a customer is updated, then Mollie gets a PATCH with the new name, e-mail and locale', async () => {
    const received: Received[] = [];
    mollie()
      .patch('/v2/customers/cst_8wmqcHMN4U')
      .reply(recorder(200, mollieFixture('customer', { email: 'new@example.nl' }), received));
    await newProvider().updateCustomer('cst_8wmqcHMN4U', {
      name: 'Jan de Vries',
      email: 'new@example.nl',
      locale: 'en',
      reference: 'cus_0001',
    });
    expect(received.map((r) => r.body)).toEqual([
      { name: 'Jan de Vries', email: 'new@example.nl', locale: 'en_US', metadata: { customer_id: 'cus_0001' } },
    ]);
  });

  it(
    'When a mandate is created, then Mollie gets a directdebit mandate with name, IBAN, BIC, signature date, reference and our ' + 'key',
    async () => {
      const received: Received[] = [];
      mollie()
        .post('/v2/customers/cst_8wmqcHMN4U/mandates')
        .reply(recorder(201, mollieFixture('mandate'), received));
      const mandate = await newProvider().createMandate(
        {
          customerId: 'cst_8wmqcHMN4U',
          consumerName: 'Jan de Vries',
          consumerAccount: 'NL55INGB0000000000',
          consumerBic: 'INGBNL2A',
          signatureDate: '2026-11-21',
          mandateReference: 'RPS-EXAMPLE00001',
        },
        'mandate-cus_0001-RPS-EXAMPLE00001',
      );
      expect(received).toEqual([
        {
          body: {
            method: 'directdebit',
            consumerName: 'Jan de Vries',
            consumerAccount: 'NL55INGB0000000000',
            consumerBic: 'INGBNL2A',
            signatureDate: '2026-11-21',
            mandateReference: 'RPS-EXAMPLE00001',
          },
          idempotencyKey: 'mandate-cus_0001-RPS-EXAMPLE00001',
          authorization: `Bearer ${TEST_MOLLIE_KEY}`,
        },
      ]);
      expect(mandate).toEqual({
        id: 'mdt_pWUnw6pkBN',
        method: 'directdebit',
        status: 'valid',
        mandateReference: 'RPS-EXAMPLE00001',
        signatureDate: '2026-11-21',
        details: {
          consumerName: 'Jan de Vries',
          consumerAccount: 'NL55INGB0000000000',
          consumerBic: 'INGBNL2A',
          cardHolder: null,
          cardNumber: null,
          cardExpiryDate: null,
          cardLabel: null,
          cardFingerprint: null,
        },
      });
    },
  );

  it('When a mandate has no BIC, then no consumerBic is sent', async () => {
    const received: Received[] = [];
    mollie()
      .post('/v2/customers/cst_8wmqcHMN4U/mandates')
      .reply(recorder(201, mollieFixture('mandate'), received));
    await newProvider().createMandate(
      {
        customerId: 'cst_8wmqcHMN4U',
        consumerName: 'J',
        consumerAccount: 'NL55INGB0000000000',
        consumerBic: null,
        signatureDate: '2026-11-21',
        mandateReference: 'R-1',
      },
      'mandate-x',
    );
    expect(received[0]?.body).not.toHaveProperty('consumerBic');
  });

  it('When a mandate is revoked, then Mollie gets a DELETE carrying a key derived from the mandate', async () => {
    const received: Received[] = [];
    mollie()
      .delete('/v2/customers/cst_8wmqcHMN4U/mandates/mdt_pWUnw6pkBN')
      .reply(function (this: { req: { headers: Record<string, string | string[] | undefined> } }) {
        received.push({
          body: {},
          idempotencyKey: headerOf(this.req, 'Idempotency-Key'),
          authorization: headerOf(this.req, 'Authorization'),
        });
        return [204, ''];
      });
    await newProvider().revokeMandate('cst_8wmqcHMN4U', 'mdt_pWUnw6pkBN');
    expect(received.map((r) => r.idempotencyKey)).toEqual(['revoke-mdt_pWUnw6pkBN']);
  });

  it(
    'When a one-off payment is created, then the body is exact (amount as a string, sequenceType, customerId, webhookUrl, metadata) ' +
      'and the key is ours',
    async () => {
      const received: Received[] = [];
      mollie()
        .post('/v2/payments')
        .reply(recorder(201, mollieFixture('payment-open'), received));
      const payment = await newProvider().createPayment(oneOff, 'payment-pay_0001');
      expect(received).toEqual([
        {
          body: {
            amount: { currency: 'EUR', value: '12.50' },
            description: 'Order #12345',
            redirectUrl: 'https://webshop.example.org/order/12345/',
            webhookUrl: WEBHOOK_URL,
            method: 'ideal',
            customerId: 'cst_8wmqcHMN4U',
            sequenceType: 'oneoff',
            metadata: { payment_id: 'pay_0001' },
          },
          idempotencyKey: 'payment-pay_0001',
          authorization: `Bearer ${TEST_MOLLIE_KEY}`,
        },
      ]);
      expect(payment).toEqual({
        id: 'tr_WDqYK6vllg',
        status: 'open',
        amount: 1250,
        currency: 'EUR',
        method: 'ideal',
        checkoutUrl: 'https://www.mollie.com/checkout/select-method/WDqYK6vllg',
        customerId: 'cst_8wmqcHMN4U',
        mandateId: null,
        paidAt: null,
        failureReason: null,
        failureCode: null,
        amountRefunded: 0,
        amountChargedBack: 0,
        reference: 'pay_example',
        createdAt: new Date('2026-11-21T10:00:00Z'),
      });
    },
  );

  it.each([
    [1, '0.01'],
    [10, '0.10'],
    [1999, '19.99'],
    [100000, '1000.00'],
    [123456789, '1234567.89'],
  ])('When the amount is %p cents, then Mollie gets value %p', async (cents, value) => {
    const received: Received[] = [];
    mollie()
      .post('/v2/payments')
      .reply(recorder(201, mollieFixture('payment-open'), received));
    await newProvider().createPayment({ ...oneOff, amount: cents }, `payment-${cents}`);
    expect(received[0]?.body.amount).toEqual({ currency: 'EUR', value });
  });

  it(
    'When a recurring payment is created, then it carries customerId, mandateId and sequenceType recurring and no ' + 'redirectUrl',
    async () => {
      const received: Received[] = [];
      mollie()
        .post('/v2/payments')
        .reply(recorder(201, mollieFixture('payment-pending'), received));
      const payment = await newProvider().createPayment(
        { ...oneOff, sequenceType: 'recurring', mandateId: 'mdt_pWUnw6pkBN', method: null, redirectUrl: 'https://ignored.example.org/' },
        'charge-chg_0001',
      );
      expect(received.map((r) => [r.body, r.idempotencyKey])).toEqual([
        [
          {
            amount: { currency: 'EUR', value: '12.50' },
            description: 'Order #12345',
            webhookUrl: WEBHOOK_URL,
            customerId: 'cst_8wmqcHMN4U',
            mandateId: 'mdt_pWUnw6pkBN',
            sequenceType: 'recurring',
            metadata: { payment_id: 'pay_0001' },
          },
          'charge-chg_0001',
        ],
      ]);
      expect(payment).toMatchObject({
        id: 'tr_pEnd1ngSD',
        status: 'pending',
        method: 'directdebit',
        mandateId: 'mdt_pWUnw6pkBN',
        checkoutUrl: null,
      });
    },
  );

  it('When a first payment is created, then sequenceType is first and the redirectUrl is sent', async () => {
    const received: Received[] = [];
    mollie()
      .post('/v2/payments')
      .reply(recorder(201, mollieFixture('payment-open', { sequenceType: 'first' }), received));
    await newProvider().createPayment({ ...oneOff, sequenceType: 'first', method: null }, 'payment-first');
    expect(received[0]?.body).toMatchObject({ sequenceType: 'first', redirectUrl: oneOff.redirectUrl, customerId: 'cst_8wmqcHMN4U' });
    expect(received[0]?.body).not.toHaveProperty('method');
  });

  it.each(['http://localhost:3000', 'http://127.0.0.1:3000', 'http://[::1]:3000', 'http://shop.localhost'])(
    'When PUBLIC_URL is %p, then no webhookUrl is sent (Mollie refuses unreachable ones) and the caller is told',
    async (publicUrl) => {
      const received: Received[] = [];
      const told: string[] = [];
      mollie()
        .post('/v2/payments')
        .reply(recorder(201, mollieFixture('payment-open'), received));
      const webhookUrl = `${publicUrl}/webhooks/mollie?account=ref123`;
      await newProvider({ onLocalWebhookUrl: (url) => told.push(url) }).createPayment({ ...oneOff, webhookUrl }, 'payment-local');
      expect(received[0]?.body).not.toHaveProperty('webhookUrl');
      expect(told).toEqual([webhookUrl]);
    },
  );

  it('When an API key is used, then no profileId or testmode is sent: the key is bound to its own profile', async () => {
    const received: Received[] = [];
    mollie()
      .post('/v2/payments')
      .reply(recorder(201, mollieFixture('payment-open'), received));
    await newProvider().createPayment(oneOff, 'payment-profile');
    expect(received[0]?.body).not.toHaveProperty('profileId');
    expect(received[0]?.body).not.toHaveProperty('testmode');
  });

  it("When an organization token is used, then the account's configured profile and test mode go with the request", async () => {
    const token = `access_${'X'.repeat(40)}`;
    const received: Received[] = [];
    mollie()
      .post('/v2/payments')
      .reply(recorder(201, mollieFixture('payment-open'), received));
    mollie()
      .post('/v2/customers')
      .reply(recorder(201, mollieFixture('customer'), received));
    const provider = newProvider({ credentials: { kind: 'accessToken', accessToken: token, profileId: 'pfl_AccountOwn', testmode: true } });
    await provider.createPayment(oneOff, 'payment-org');
    await provider.createCustomer({ name: 'A B', email: 'a@example.nl', locale: null, reference: 'cus_3' }, 'customer-cus_3');
    expect(received[0]).toMatchObject({ body: { profileId: 'pfl_AccountOwn', testmode: true }, authorization: `Bearer ${token}` });
    expect(received[1]).toMatchObject({ body: { testmode: true } });
  });

  it('When the same row is retried, then both requests carry the same Idempotency-Key', async () => {
    const received: Received[] = [];
    mollie()
      .post('/v2/payments')
      .times(2)
      .reply(recorder(201, mollieFixture('payment-open'), received));
    const provider = newProvider();
    const first = await provider.createPayment(oneOff, 'payment-pay_0001');
    const second = await provider.createPayment(oneOff, 'payment-pay_0001');
    expect(received.map((r) => r.idempotencyKey)).toEqual(['payment-pay_0001', 'payment-pay_0001']);
    expect(received[1]?.body).toEqual(received[0]?.body);
    expect(second.id).toBe(first.id);
  });

  it("When Mollie answers 500 twice and then 201, then the client's own retries reuse our key and the payment is created", async () => {
    const received: Received[] = [];
    // Retry-After: 0 only keeps the client's pause between attempts (2 s by default) out of the test run.
    mollie()
      .post('/v2/payments')
      .times(2)
      .reply(recorder(500, mollieFixture('error-500'), received, { 'Retry-After': '0' }));
    mollie()
      .post('/v2/payments')
      .reply(recorder(201, mollieFixture('payment-open'), received));
    const payment = await newProvider().createPayment(oneOff, 'payment-pay_0001');
    expect(payment.id).toBe('tr_WDqYK6vllg');
    expect(received.map((r) => r.idempotencyKey)).toEqual(['payment-pay_0001', 'payment-pay_0001', 'payment-pay_0001']);
  });
});

describe('MollieProvider payment statuses', () => {
  it.each([
    ['payment-open', 'open'],
    ['payment-pending', 'pending'],
    ['payment-authorized', 'authorized'],
    ['payment-paid', 'paid'],
    ['payment-canceled', 'canceled'],
    ['payment-expired', 'expired'],
    ['payment-failed-sepa', 'failed'],
    ['payment-failed-card', 'failed'],
    ['payment-refunded', 'refunded'],
    ['payment-charged-back', 'charged_back'],
  ])('When Mollie reports %s, then our status is %p', async (fixture, status) => {
    const body = mollieFixture(fixture);
    mollie()
      .get(`/v2/payments/${String(body.id)}`)
      .reply(200, body);
    expect((await newProvider().getPayment(String(body.id))).status).toBe(status);
  });

  it('When a paid payment is refunded only in part, then it stays paid', async () => {
    mollie()
      .get('/v2/payments/tr_rEfundEd1')
      .reply(
        200,
        mollieFixture('payment-refunded', {
          amountRefunded: { value: '5.00', currency: 'EUR' },
          amountRemaining: { value: '7.50', currency: 'EUR' },
        }),
      );
    expect((await newProvider().getPayment('tr_rEfundEd1')).status).toBe('paid');
  });

  it('When a payment was refunded in full, in part or charged back, then the money that went back is in cents', async () => {
    mollie().get('/v2/payments/tr_rEfundEd1').reply(200, mollieFixture('payment-refunded'));
    mollie()
      .get('/v2/payments/tr_rEfundEd2')
      .reply(
        200,
        mollieFixture('payment-refunded', {
          id: 'tr_rEfundEd2',
          amountRefunded: { value: '5.00', currency: 'EUR' },
          amountRemaining: { value: '7.50', currency: 'EUR' },
        }),
      );
    mollie().get('/v2/payments/tr_cHargeBk1').reply(200, mollieFixture('payment-charged-back'));
    const provider = newProvider();
    expect(await provider.getPayment('tr_rEfundEd1')).toMatchObject({ status: 'refunded', amountRefunded: 1250, amountChargedBack: 0 });
    expect(await provider.getPayment('tr_rEfundEd2')).toMatchObject({ status: 'paid', amountRefunded: 500, amountChargedBack: 0 });
    expect(await provider.getPayment('tr_cHargeBk1')).toMatchObject({
      status: 'charged_back',
      amountRefunded: 0,
      amountChargedBack: 1250,
      reference: 'pay_example',
      createdAt: new Date('2026-11-21T10:00:00Z'),
    });
  });

  it.each([
    ['no metadata', null],
    ['metadata of someone else', { order_id: 12 }],
    ['a payment_id that is not a string', { payment_id: 12 }],
  ])('When a payment has %s, then its reference is null: not a payment we made', async (_case, metadata) => {
    mollie().get('/v2/payments/tr_WDqYK6vllg').reply(200, mollieFixture('payment-open', { metadata }));
    expect((await newProvider().getPayment('tr_WDqYK6vllg')).reference).toBeNull();
  });

  it('When a payment is paid, then paidAt, method, customer and amount are mapped', async () => {
    mollie().get('/v2/payments/tr_pA1dIdEaL').reply(200, mollieFixture('payment-paid'));
    expect(await newProvider().getPayment('tr_pA1dIdEaL')).toEqual({
      id: 'tr_pA1dIdEaL',
      status: 'paid',
      amount: 1250,
      currency: 'EUR',
      method: 'ideal',
      checkoutUrl: null,
      customerId: 'cst_8wmqcHMN4U',
      mandateId: null,
      paidAt: new Date('2026-11-21T10:03:12Z'),
      failureReason: null,
      failureCode: null,
      amountRefunded: 0,
      amountChargedBack: 0,
      reference: 'pay_example',
      createdAt: new Date('2026-11-21T10:00:00Z'),
    });
  });

  it("When a SEPA debit failed, then the bank's reason code and text are the failure code and reason", async () => {
    mollie().get('/v2/payments/tr_fA1lSePa1').reply(200, mollieFixture('payment-failed-sepa'));
    expect(await newProvider().getPayment('tr_fA1lSePa1')).toMatchObject({
      status: 'failed',
      mandateId: 'mdt_pWUnw6pkBN',
      customerId: 'cst_8wmqcHMN4U',
      failureCode: 'AM04',
      failureReason: 'Insufficient funds',
    });
  });

  it("When a card payment failed, then Mollie's failureReason and failureMessage are the failure code and reason", async () => {
    mollie().get('/v2/payments/tr_fA1lCard1').reply(200, mollieFixture('payment-failed-card'));
    expect(await newProvider().getPayment('tr_fA1lCard1')).toMatchObject({
      status: 'failed',
      method: 'creditcard',
      failureCode: 'insufficient_funds',
      failureReason: 'The card has insufficient funds available.',
    });
  });
});

describe('MollieProvider errors', () => {
  it("When Mollie answers 422 naming amount, then it is our 422 naming amount, with Mollie's message", async () => {
    mollie().post('/v2/payments').reply(422, mollieFixture('error-422-payment'));
    const error = await failureOf(newProvider().createPayment(oneOff, 'payment-422'));
    expect(error).toBeInstanceOf(ProviderRejectedError);
    expect(error).toMatchObject({
      status: 422,
      code: 'provider_rejected',
      message: 'The payment provider refused the request: The amount is lower than the minimum',
      fields: { amount: ['The amount is lower than the minimum'] },
    });
  });

  it('When Mollie answers 422 naming consumerAccount on a mandate, then our 422 names consumer_account', async () => {
    mollie().post('/v2/customers/cst_8wmqcHMN4U/mandates').reply(422, mollieFixture('error-422-mandate'));
    const error = await failureOf(
      newProvider().createMandate(
        {
          customerId: 'cst_8wmqcHMN4U',
          consumerName: 'J',
          consumerAccount: 'NL00',
          consumerBic: null,
          signatureDate: '2026-11-21',
          mandateReference: 'R',
        },
        'mandate-422',
      ),
    );
    expect(error).toMatchObject({ status: 422, fields: { consumer_account: ['The consumer account is invalid'] } });
  });

  it('When Mollie answers 422 on a field the client did not send, then our 422 names no field', async () => {
    mollie()
      .post('/v2/payments')
      .reply(
        422,
        mollieFixture('error-422-payment', {
          detail: "The webhook URL is invalid because it is unreachable from Mollie's point of view",
          field: 'webhookUrl',
        }),
      );
    const error = await failureOf(newProvider().createPayment(oneOff, 'payment-422b'));
    expect(error).toMatchObject({ status: 422, fields: {} });
  });

  it.each([
    ['error-401', 401],
    ['error-403', 403],
  ])('When Mollie answers %s, then it is the credentials error without the key', async (fixture, status) => {
    mollie().post('/v2/payments').reply(status, mollieFixture(fixture));
    const error = await failureOf(newProvider().createPayment(oneOff, 'payment-401'));
    expect(error).toBeInstanceOf(ProviderCredentialsError);
    expect(error).toMatchObject({ status: 502, code: 'provider_credentials_invalid', retryable: false });
    expect((error as Error).message).toMatch(/Mollie credentials/);
    expect((error as Error).message).not.toContain(TEST_MOLLIE_KEY);
  });

  it('When Mollie does not know the payment (404), then it is a clear not-found provider error', async () => {
    mollie().get('/v2/payments/tr_doesnotexist').reply(404, mollieFixture('error-404'));
    const error = await failureOf(newProvider().getPayment('tr_doesnotexist'));
    expect(error).toBeInstanceOf(ProviderNotFoundError);
    expect(error).toMatchObject({
      status: 502,
      code: 'provider_not_found',
      message: 'The payment provider does not know the requested object: No payment exists with token tr_doesnotexist.',
    });
  });

  it(
    'When Mollie keeps answering 500, then after the client gave up (3 attempts, one key) it is a retryable 502 with a retry ' + 'hint',
    async () => {
      const received: Received[] = [];
      mollie()
        .post('/v2/payments')
        .times(3)
        .reply(recorder(500, mollieFixture('error-500'), received, { 'Retry-After': '0' }));
      const error = await failureOf(newProvider().createPayment(oneOff, 'payment-pay_0001'));
      expect(error).toBeInstanceOf(ProviderOutageError);
      expect(error).toBeInstanceOf(ProviderUnavailableError);
      expect(error).toMatchObject({ status: 502, code: 'provider_unavailable', retryable: true, retryAfterSeconds: 30 });
      expect((error as Error).message).toBe('The payment provider could not be reached (HTTP 500); retry the request in about 30 seconds');
      expect(received.map((r) => r.idempotencyKey)).toEqual(['payment-pay_0001', 'payment-pay_0001', 'payment-pay_0001']);
    },
  );

  it('When Mollie rate-limits (429), then it is a retryable 502 after one attempt (the client does not retry 429)', async () => {
    mollie().post('/v2/payments').reply(429, mollieFixture('error-429'));
    const error = await failureOf(newProvider().createPayment(oneOff, 'payment-429'));
    expect(error).toMatchObject({ status: 502, retryable: true, message: expect.stringContaining('HTTP 429') });
  });

  it('When the socket times out, then it is a retryable 502', async () => {
    mollie()
      .get('/v2/payments/tr_WDqYK6vllg')
      .replyWithError(Object.assign(new Error('socket timeout'), { code: 'ETIMEDOUT' }));
    const error = await failureOf(newProvider().getPayment('tr_WDqYK6vllg'));
    expect(error).toBeInstanceOf(ProviderOutageError);
    expect(error).toMatchObject({
      status: 502,
      retryable: true,
      message: 'The payment provider could not be reached (network error); retry the request in about 30 seconds',
    });
  });

  it('When Mollie does not answer within the timeout, then the call gives up with a retryable 502', async () => {
    mollie().post('/v2/payments').delay(1000).reply(201, mollieFixture('payment-open'));
    const error = await failureOf(newProvider({ timeoutMs: 50 }).createPayment(oneOff, 'payment-slow'));
    expect(error).toMatchObject({
      status: 502,
      retryable: true,
      message: 'The payment provider could not be reached (no answer within 0.05 s); retry the request in about 30 seconds',
    });
    // Let the late answer arrive before the network guard checks this test's interceptors.
    await new Promise((resolve) => setTimeout(resolve, 1100));
  });

  describe('whether the request may have been carried out at Mollie (mayHaveReachedProvider)', () => {
    const outcomeOf = async (reply: (scope: ReturnType<typeof mollie>) => void) => {
      reply(mollie());
      return failureOf(newProvider().createPayment(oneOff, 'payment-outcome'));
    };

    it('When the connection drops, then the outcome is unknown (true)', async () => {
      const error = await outcomeOf((scope) =>
        scope.post('/v2/payments').replyWithError(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' })),
      );
      expect(error).toBeInstanceOf(ProviderOutageError);
      expect(error).toMatchObject({ mayHaveReachedProvider: true });
      expect(outcomeIsUnknown(error)).toBe(true);
    });

    it('When the answer is not JSON (a proxy page), then the outcome is unknown (true)', async () => {
      const error = await outcomeOf((scope) =>
        scope.post('/v2/payments').reply(201, '<html>Bad gateway</html>', { 'Content-Type': 'text/html' }),
      );
      expect(error).toMatchObject({ mayHaveReachedProvider: true, reason: 'network error' });
    });

    it('When Mollie keeps answering 500 (3 attempts), then the outcome is unknown (true)', async () => {
      const error = await outcomeOf((scope) =>
        scope.post('/v2/payments').times(3).reply(500, mollieFixture('error-500'), { 'Retry-After': '0' }),
      );
      expect(error).toMatchObject({ mayHaveReachedProvider: true, reason: 'HTTP 500' });
    });

    it('When the same key is still in progress at Mollie (409), then the outcome is unknown (true) and a retry helps', async () => {
      const error = await outcomeOf((scope) => scope.post('/v2/payments').reply(409, mollieFixture('error-409')));
      expect(error).toBeInstanceOf(ProviderOutageError);
      expect(error).toMatchObject({ mayHaveReachedProvider: true, retryable: true });
    });

    it('When our own timeout gives up, then the outcome is unknown (true)', async () => {
      mollie().post('/v2/payments').delay(1000).reply(201, mollieFixture('payment-open'));
      const error = await failureOf(newProvider({ timeoutMs: 50 }).createPayment(oneOff, 'payment-slow-outcome'));
      expect(error).toMatchObject({ mayHaveReachedProvider: true });
      await new Promise((resolve) => setTimeout(resolve, 1100));
    });

    it('When Mollie rate-limits (429), then it certainly did nothing (false), and a retry later helps', async () => {
      const error = await outcomeOf((scope) => scope.post('/v2/payments').reply(429, mollieFixture('error-429')));
      expect(error).toBeInstanceOf(ProviderOutageError);
      expect(error).toMatchObject({ mayHaveReachedProvider: false, retryable: true });
      expect(outcomeIsUnknown(error)).toBe(false);
    });

    it.each([
      [422, 'error-422-payment', ProviderRejectedError],
      [401, 'error-401', ProviderCredentialsError],
      [403, 'error-403', ProviderCredentialsError],
      [404, 'error-404', ProviderNotFoundError],
      [400, 'error-422-payment', ProviderFailedError],
    ])('When Mollie answers %p, then it certainly did nothing (false)', async (status, fixture, errorClass) => {
      const error = await outcomeOf((scope) => scope.post('/v2/payments').reply(status, mollieFixture(fixture, { status })));
      expect(error).toBeInstanceOf(errorClass);
      expect(error).toMatchObject({ mayHaveReachedProvider: false });
    });

    it('When an id does not look like a Mollie id, then the client refuses before sending (false)', async () => {
      const error = await failureOf(newProvider().getPayment('pay_not_a_mollie_id'));
      expect(error).toBeInstanceOf(ProviderRejectedError);
      expect(error).toMatchObject({ mayHaveReachedProvider: false });
    });
  });

  it('When calls fail, then the log names the operation and never the key', async () => {
    logs.lines.length = 0;
    mollie().post('/v2/payments').reply(401, mollieFixture('error-401'));
    await failureOf(newProvider().createPayment(oneOff, 'payment-log'));
    mollie()
      .get('/v2/payments/tr_x1')
      .replyWithError(Object.assign(new Error(`request failed, Authorization: Bearer ${TEST_MOLLIE_KEY}`), { code: 'ECONNRESET' }));
    await failureOf(newProvider().getPayment('tr_x1'));
    const text = logs.lines.join('\n');
    expect(text).toContain('"operation":"create payment"');
    expect(text).toContain('"code":"provider_credentials_invalid"');
    expect(text).toContain('"operation":"get payment"');
    expect(text).not.toContain(TEST_MOLLIE_KEY);
    expect(text).not.toContain(TEST_MOLLIE_KEY.slice(5));
  });
});

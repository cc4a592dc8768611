import { createLogger } from '../../src/logger';
import { ProviderNotFoundError, ProviderRejectedError } from '../../src/providers/errors';
import { MollieProvider, type MollieCredentials } from '../../src/providers/mollie/provider';
import { MemoryTransport } from '../support/testApp';
import { guardMollieNetwork, headerOf, mollie, mollieFixture, TEST_MOLLIE_KEY } from '../support/mollieNock';

guardMollieNetwork();

const logger = createLogger('debug');
logger.clear();
logger.add(new MemoryTransport());

function newProvider(credentials: MollieCredentials = { kind: 'apiKey', apiKey: TEST_MOLLIE_KEY }) {
  return new MollieProvider({ credentials, apiUrl: null, logger, onLocalWebhookUrl: () => undefined });
}

type NockThis = { req: { path: string; headers: Record<string, string | string[] | undefined> } };

/** Answers with a fixture and records the request's path (with its query) and bearer. */
function answer(fixture: string, seen: string[], status = 200) {
  return function (this: NockThis): [number, Record<string, unknown>] {
    seen.push(`${this.req.path} ${headerOf(this.req, 'Authorization') ?? ''}`);
    return [status, mollieFixture(fixture)];
  };
}

const CUSTOMER = 'cst_8wmqcHMN4U';
const BEARER = `Bearer ${TEST_MOLLIE_KEY}`;

describe('MollieProvider.findPaymentByReference (Mollie has no search by metadata: lists are read newest first)', () => {
  it('When the payment is on the second page, then both pages are read, 250 at a time, and it is found and mapped', async () => {
    const seen: string[] = [];
    mollie().get('/v2/payments').query({ limit: '250' }).reply(answer('payments-list-page-1', seen));
    mollie().get('/v2/payments').query({ from: 'tr_oLder00003', limit: '250' }).reply(answer('payments-list-page-2', seen));
    const found = await newProvider().findPaymentByReference({
      reference: 'pay_wanted0001',
      customerId: null,
      createdAfter: new Date('2026-11-21T10:00:00Z'),
    });
    expect(seen).toEqual([`/v2/payments?limit=250 ${BEARER}`, `/v2/payments?limit=250&from=tr_oLder00003 ${BEARER}`]);
    expect(found).toEqual({
      id: 'tr_oLder00003',
      status: 'paid',
      amount: 1250,
      currency: 'EUR',
      method: 'ideal',
      checkoutUrl: null,
      customerId: CUSTOMER,
      mandateId: null,
      paidAt: new Date('2026-11-21T11:02:41Z'),
      failureReason: null,
      failureCode: null,
      amountRefunded: 250,
      amountChargedBack: 0,
      reference: 'pay_wanted0001',
      createdAt: new Date('2026-11-21T11:00:00Z'),
    });
  });

  it('When a payment older than createdAfter is reached, then the search stops there and reads no further page', async () => {
    const seen: string[] = [];
    // The second payment of page 1 (11:30) is older than 11:45; page 2 is never asked for (the guard fails on any call).
    mollie().get('/v2/payments').query({ limit: '250' }).reply(answer('payments-list-page-1', seen));
    const found = await newProvider().findPaymentByReference({
      reference: 'pay_wanted0001',
      customerId: null,
      createdAfter: new Date('2026-11-21T11:45:00Z'),
    });
    expect(found).toBeNull();
    expect(seen).toHaveLength(1);
  });

  it('When no payment carries the reference, then every page back to createdAfter is read and the answer is null', async () => {
    const seen: string[] = [];
    mollie().get('/v2/payments').query({ limit: '250' }).reply(answer('payments-list-page-1', seen));
    mollie().get('/v2/payments').query({ from: 'tr_oLder00003', limit: '250' }).reply(answer('payments-list-page-2', seen));
    const found = await newProvider().findPaymentByReference({
      reference: 'pay_absent0001',
      customerId: null,
      createdAfter: new Date('2026-11-01T00:00:00Z'),
    });
    expect(found).toBeNull();
    expect(seen).toHaveLength(2);
  });

  it(
    "When the customer is known, then only the customer's payments are read; a charged-back one is mapped with its " + 'chargeback',
    async () => {
      const seen: string[] = [];
      mollie().get(`/v2/customers/${CUSTOMER}/payments`).query({ limit: '250' }).reply(answer('customer-payments-list', seen));
      const found = await newProvider().findPaymentByReference({
        reference: 'pay_charged001',
        customerId: CUSTOMER,
        createdAfter: new Date('2026-11-21T09:50:00Z'),
      });
      expect(seen).toEqual([`/v2/customers/${CUSTOMER}/payments?limit=250 ${BEARER}`]);
      expect(found).toMatchObject({
        id: 'tr_cHargeBk2',
        status: 'charged_back',
        amountRefunded: 0,
        amountChargedBack: 1250,
        mandateId: 'mdt_pWUnw6pkBN',
        reference: 'pay_charged001',
      });
    },
  );

  it("When an organization token is used, then the search carries the account's profile and test mode", async () => {
    const token = `access_${'X'.repeat(40)}`;
    const seen: string[] = [];
    mollie()
      .get('/v2/payments')
      .query({ limit: '250', profileId: 'pfl_AccountOwn', testmode: 'true' })
      .reply(answer('payments-list-page-1', seen));
    const provider = newProvider({ kind: 'accessToken', accessToken: token, profileId: 'pfl_AccountOwn', testmode: true });
    const found = await provider.findPaymentByReference({
      reference: 'pay_other00001',
      customerId: null,
      createdAfter: new Date('2026-11-21T11:00:00Z'),
    });
    expect(found?.id).toBe('tr_nEwest0001');
    // The interceptor matched the query exactly (profileId, testmode, limit); the bearer is the token.
    expect(seen).toEqual([expect.stringMatching(new RegExp(` Bearer ${token}$`))]);
  });
});

describe('MollieProvider.findCustomerByReference', () => {
  it('When the customer is on the second page, then it is found by metadata.customer_id', async () => {
    const seen: string[] = [];
    mollie().get('/v2/customers').query({ limit: '250' }).reply(answer('customers-list-page-1', seen));
    mollie().get('/v2/customers').query({ from: 'cst_oLder00003', limit: '250' }).reply(answer('customers-list-page-2', seen));
    const found = await newProvider().findCustomerByReference({
      reference: 'cus_wanted0001',
      createdAfter: new Date('2026-11-21T10:00:00Z'),
    });
    expect(found).toEqual({ id: 'cst_oLder00003' });
    expect(seen).toEqual([`/v2/customers?limit=250 ${BEARER}`, `/v2/customers?limit=250&from=cst_oLder00003 ${BEARER}`]);
  });

  it('When a customer older than createdAfter is reached, then the search stops without reading the next page', async () => {
    const seen: string[] = [];
    mollie().get('/v2/customers').query({ limit: '250' }).reply(answer('customers-list-page-1', seen));
    expect(
      await newProvider().findCustomerByReference({ reference: 'cus_wanted0001', createdAfter: new Date('2026-11-21T11:45:00Z') }),
    ).toBeNull();
    expect(seen).toHaveLength(1);
  });

  it('When no customer carries the reference, then the answer is null', async () => {
    const seen: string[] = [];
    mollie().get('/v2/customers').query({ limit: '250' }).reply(answer('customers-list-page-1', seen));
    mollie().get('/v2/customers').query({ from: 'cst_oLder00003', limit: '250' }).reply(answer('customers-list-page-2', seen));
    expect(
      await newProvider().findCustomerByReference({ reference: 'cus_absent0001', createdAfter: new Date('2026-11-01T00:00:00Z') }),
    ).toBeNull();
    expect(seen).toHaveLength(2);
  });
});

describe('MollieProvider mandates', () => {
  it('When a mandate is fetched, then it is a GET of the mandate under its customer, mapped', async () => {
    const seen: string[] = [];
    mollie().get(`/v2/customers/${CUSTOMER}/mandates/mdt_pWUnw6pkBN`).reply(answer('mandate', seen));
    const mandate = await newProvider().getMandate(CUSTOMER, 'mdt_pWUnw6pkBN');
    expect(seen).toEqual([`/v2/customers/${CUSTOMER}/mandates/mdt_pWUnw6pkBN ${BEARER}`]);
    expect(mandate).toMatchObject({
      id: 'mdt_pWUnw6pkBN',
      method: 'directdebit',
      status: 'valid',
      mandateReference: 'RPS-EXAMPLE00001',
      signatureDate: '2026-11-21',
    });
  });

  it('When Mollie does not know the mandate (404), then it is the not-found provider error', async () => {
    mollie()
      .get(`/v2/customers/${CUSTOMER}/mandates/mdt_unknown01`)
      .reply(404, mollieFixture('error-404', { detail: 'No mandate exists with token mdt_unknown01.' }));
    await expect(newProvider().getMandate(CUSTOMER, 'mdt_unknown01')).rejects.toBeInstanceOf(ProviderNotFoundError);
  });

  it(
    'When the mandates are listed, then every page is read and card and direct-debit mandates are mapped; a PayPal one is left ' + 'out',
    async () => {
      const seen: string[] = [];
      mollie().get(`/v2/customers/${CUSTOMER}/mandates`).query({ limit: '250' }).reply(answer('mandates-list-page-1', seen));
      mollie()
        .get(`/v2/customers/${CUSTOMER}/mandates`)
        .query({ from: 'mdt_pAypa10001', limit: '250' })
        .reply(answer('mandates-list-page-2', seen));
      const mandates = await newProvider().listMandates(CUSTOMER);
      expect(seen).toEqual([
        `/v2/customers/${CUSTOMER}/mandates?limit=250 ${BEARER}`,
        `/v2/customers/${CUSTOMER}/mandates?limit=250&from=mdt_pAypa10001 ${BEARER}`,
      ]);
      expect(mandates).toEqual([
        {
          id: 'mdt_cArd000001',
          method: 'creditcard',
          status: 'valid',
          mandateReference: null,
          signatureDate: '2026-11-22',
          details: {
            consumerName: null,
            consumerAccount: null,
            consumerBic: null,
            cardHolder: 'Jan de Vries',
            cardNumber: '6787',
            cardExpiryDate: '2029-12-31',
            cardLabel: 'Mastercard',
            cardFingerprint: 'fHB3CCKx9REkz8fPplT8N4nq',
          },
        },
        expect.objectContaining({ id: 'mdt_pWUnw6pkBN', method: 'directdebit', status: 'valid' }),
      ]);
    },
  );
});

describe('MollieProvider.cancelPayment', () => {
  it(
    'When an open payment is canceled, then Mollie gets a DELETE with a key derived from the payment and the canceled payment is ' +
      'answered',
    async () => {
      const keys: Array<string | undefined> = [];
      mollie()
        .delete('/v2/payments/tr_cAnce1ed1')
        .reply(function (this: NockThis) {
          keys.push(headerOf(this.req, 'Idempotency-Key'));
          return [200, mollieFixture('payment-canceled')];
        });
      const payment = await newProvider().cancelPayment('tr_cAnce1ed1');
      expect(keys).toEqual(['cancel-tr_cAnce1ed1']);
      expect(payment).toMatchObject({ id: 'tr_cAnce1ed1', status: 'canceled', reference: 'pay_example', checkoutUrl: null });
    },
  );

  it('When the payment can no longer be canceled (422), then it is a refusal that changed nothing', async () => {
    mollie().delete('/v2/payments/tr_pA1dIdEaL').reply(422, mollieFixture('error-422-cancel'));
    const error = await newProvider()
      .cancelPayment('tr_pA1dIdEaL')
      .then(
        () => null,
        (failure: unknown) => failure,
      );
    expect(error).toBeInstanceOf(ProviderRejectedError);
    expect(error).toMatchObject({
      status: 422,
      mayHaveReachedProvider: false,
      message: 'The payment provider refused the request: The payment cannot be canceled',
    });
  });
});

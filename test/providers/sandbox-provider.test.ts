import request from 'supertest';
import { ProviderNotFoundError, ProviderRejectedError } from '../../src/providers/errors';
import { completeCheckout } from '../../src/providers/sandbox/checkoutCompletion';
import type { SandboxPaymentRow } from '../../src/providers/sandbox/rows';
import type { PaymentProvider, ProviderPaymentInput } from '../../src/providers/types';
import { TEST_DATABASES } from '../support/databases';
import { useTestApp, TEST_PUBLIC_URL } from '../support/testApp';

const START = '2026-11-21T10:00:00Z';
const minutes = (n: number) => n * 60 * 1000;

const oneOff: ProviderPaymentInput = {
  amount: 1250,
  currency: 'EUR',
  description: 'Order #1',
  sequenceType: 'oneoff',
  customerId: null,
  mandateId: null,
  method: null,
  redirectUrl: 'https://shop.example.nl/thanks',
  webhookUrl: null,
  reference: 'pay_sandbox0001',
};

const mandateInput = (customerId: string, reference: string) => ({
  customerId,
  consumerName: 'Anna de Vries',
  consumerAccount: 'NL91ABNA0417164300',
  consumerBic: null,
  signatureDate: '2026-11-21',
  mandateReference: reference,
});

async function failureOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (error: unknown) => error,
  );
}

describe.each(TEST_DATABASES)('sandbox provider on %s', (kind) => {
  const t = useTestApp(kind);

  afterEach(() => t.clock.set(START));

  /** A new account without a Mollie key, which gets the sandbox. */
  async function sandboxAccount(): Promise<{ accountId: string; token: string; provider: PaymentProvider }> {
    const { accountId, token } = await t.newAccount();
    const provider = await t.ctx.providers.forAccount({ id: accountId });
    expect(provider.name).toBe('sandbox');
    return { accountId, token, provider };
  }

  const customerOf = (provider: PaymentProvider, reference = 'cus_sandbox0001') =>
    provider.createCustomer({ name: 'Anna de Vries', email: 'anna@example.nl', locale: 'nl', reference }, `customer-${reference}`);

  const mandatesAtProvider = async (accountId: string) =>
    Number((await t.ctx.db('sandbox_mandates').where({ account_id: accountId }).count({ n: '*' }))[0]?.n);

  describe('lookups by our reference', () => {
    it(
      'When a customer was made with our reference, then it is found from before its creation on, and not by another ' + 'account',
      async () => {
        const { provider } = await sandboxAccount();
        const { id } = await customerOf(provider, 'cus_lookup0001');
        expect(
          await provider.findCustomerByReference({ reference: 'cus_lookup0001', createdAfter: new Date('2026-11-21T09:50:00Z') }),
        ).toEqual({ id });
        // Inclusive: created at exactly 10:00:00.
        expect(await provider.findCustomerByReference({ reference: 'cus_lookup0001', createdAfter: new Date(START) })).toEqual({ id });
        expect(
          await provider.findCustomerByReference({ reference: 'cus_absent0001', createdAfter: new Date('2026-11-21T09:50:00Z') }),
        ).toBeNull();
        expect(
          await provider.findCustomerByReference({ reference: 'cus_lookup0001', createdAfter: new Date('2026-11-21T10:05:00Z') }),
        ).toBeNull();
        const other = await sandboxAccount();
        expect(
          await other.provider.findCustomerByReference({ reference: 'cus_lookup0001', createdAfter: new Date('2026-11-21T09:50:00Z') }),
        ).toBeNull();
      },
    );

    it(
      'When a payment was made with our reference, then it is found (with or without its customer) with the new fields; absent, too ' +
        'old or of another customer, it is not',
      async () => {
        const { provider } = await sandboxAccount();
        const customer = await customerOf(provider);
        const created = await provider.createPayment(
          { ...oneOff, customerId: customer.id, reference: 'pay_lookup0001' },
          'payment-pay_lookup0001',
        );
        const before = new Date('2026-11-21T09:50:00Z');

        const found = await provider.findPaymentByReference({ reference: 'pay_lookup0001', customerId: customer.id, createdAfter: before });
        expect(found).toEqual({
          id: created.id,
          status: 'open',
          amount: 1250,
          currency: 'EUR',
          method: null,
          checkoutUrl: `${TEST_PUBLIC_URL}/sandbox/checkout/${created.id}`,
          customerId: customer.id,
          mandateId: null,
          paidAt: null,
          failureReason: null,
          failureCode: null,
          amountRefunded: 0,
          amountChargedBack: 0,
          reference: 'pay_lookup0001',
          createdAt: new Date(START),
        });
        expect(await provider.getPayment(created.id)).toEqual(found);
        expect((await provider.findPaymentByReference({ reference: 'pay_lookup0001', customerId: null, createdAfter: before }))?.id).toBe(
          created.id,
        );
        expect(await provider.findPaymentByReference({ reference: 'pay_absent0001', customerId: null, createdAfter: before })).toBeNull();
        expect(
          await provider.findPaymentByReference({
            reference: 'pay_lookup0001',
            customerId: null,
            createdAfter: new Date('2026-11-21T10:00:01Z'),
          }),
        ).toBeNull();
        const otherCustomer = await customerOf(provider, 'cus_sandbox0002');
        expect(
          await provider.findPaymentByReference({ reference: 'pay_lookup0001', customerId: otherCustomer.id, createdAfter: before }),
        ).toBeNull();
      },
    );
  });

  describe('mandates', () => {
    it('When a customer has mandates, then each is got by id and all are listed newest first, a revoked one too', async () => {
      const { provider } = await sandboxAccount();
      const customer = await customerOf(provider);
      const older = await provider.createMandate(mandateInput(customer.id, 'RPS-OLDER'), 'mandate-older');
      t.clock.advance(minutes(5));
      const newer = await provider.createMandate(mandateInput(customer.id, 'RPS-NEWER'), 'mandate-newer');
      await provider.revokeMandate(customer.id, older.id);

      expect(await provider.getMandate(customer.id, newer.id)).toEqual({
        id: newer.id,
        method: 'directdebit',
        status: 'valid',
        mandateReference: 'RPS-NEWER',
        signatureDate: '2026-11-21',
        details: { consumerName: 'Anna de Vries', consumerAccount: 'NL91ABNA0417164300', consumerBic: null },
      });
      expect((await provider.listMandates(customer.id)).map((m) => [m.id, m.status])).toEqual([
        [newer.id, 'valid'],
        [older.id, 'invalid'],
      ]);
      expect(await provider.listMandates((await customerOf(provider, 'cus_nomandates1')).id)).toEqual([]);
    });

    it('When the mandate or the customer is unknown, then it is the not-found provider error', async () => {
      const { provider } = await sandboxAccount();
      const customer = await customerOf(provider);
      expect(await failureOf(provider.getMandate(customer.id, 'mdt_unknown001'))).toBeInstanceOf(ProviderNotFoundError);
      expect(await failureOf(provider.listMandates('cst_unknown001'))).toBeInstanceOf(ProviderNotFoundError);
    });
  });

  describe('cancelPayment', () => {
    it('When an open payment is canceled, then it is canceled and has no checkout any more', async () => {
      const { provider } = await sandboxAccount();
      const created = await provider.createPayment(oneOff, 'payment-cancel-open');
      const canceled = await provider.cancelPayment(created.id);
      expect(canceled).toMatchObject({ id: created.id, status: 'canceled', checkoutUrl: null, reference: oneOff.reference });
      expect((await provider.getPayment(created.id)).status).toBe('canceled');
    });

    it('When a pending recurring charge is canceled, then it is canceled before it settles', async () => {
      const { provider } = await sandboxAccount();
      const customer = await customerOf(provider);
      const mandate = await provider.createMandate(mandateInput(customer.id, 'RPS-CANCEL'), 'mandate-cancel');
      const charge = await provider.createPayment(
        { ...oneOff, sequenceType: 'recurring', customerId: customer.id, mandateId: mandate.id, redirectUrl: null },
        'charge-cancel',
      );
      expect(charge.status).toBe('pending');
      expect((await provider.cancelPayment(charge.id)).status).toBe('canceled');
      expect((await provider.getPayment(charge.id)).status).toBe('canceled');
    });

    it('When a paid payment is canceled, then the provider refuses (422) and nothing changes', async () => {
      const { provider } = await sandboxAccount();
      const created = await provider.createPayment(oneOff, 'payment-cancel-paid');
      const paid = await request(t.app).post(`/sandbox/checkout/${created.id}`).type('form').send({ status: 'paid' });
      expect(paid.status).toBe(303);
      const error = await failureOf(provider.cancelPayment(created.id));
      expect(error).toBeInstanceOf(ProviderRejectedError);
      expect(error).toMatchObject({ status: 422, mayHaveReachedProvider: false, detail: 'The payment cannot be canceled: it is paid' });
      expect((await provider.getPayment(created.id)).status).toBe('paid');
    });

    it('When the payment is unknown, then it is the not-found provider error', async () => {
      const { provider } = await sandboxAccount();
      expect(await failureOf(provider.cancelPayment('tr_unknown0001'))).toBeInstanceOf(ProviderNotFoundError);
    });
  });

  describe('a paid first payment creates a mandate, like Mollie', () => {
    async function firstPaymentOfNewCustomer(method: string | null) {
      const { accountId, token, provider } = await sandboxAccount();
      const res = await t.as(token).post('/api/v2/customers', { first_name: 'Anna', last_name: 'de Vries', email: 'anna@example.nl' });
      expect(res.status).toBe(201);
      const customerId = String(res.body.provider_customer_id);
      // There is no API for first payments yet: straight to the provider.
      const first = await provider.createPayment(
        { ...oneOff, amount: 1, sequenceType: 'first', customerId, method, reference: 'pay_first00001' },
        'payment-pay_first00001',
      );
      expect(first).toMatchObject({ status: 'open', checkoutUrl: `${TEST_PUBLIC_URL}/sandbox/checkout/${first.id}` });
      return { accountId, provider, customerId, first };
    }

    const pay = (paymentId: string) => request(t.app).post(`/sandbox/checkout/${paymentId}`).type('form').send({ status: 'paid' });

    it(
      'When the payer pays it at the checkout, then the payment names a new valid mandate, a second click makes none, and a ' +
        'recurring charge on it is accepted',
      async () => {
        const { accountId, provider, customerId, first } = await firstPaymentOfNewCustomer(null);

        const paid = await pay(first.id);
        expect(paid.status).toBe(303);
        expect(paid.headers.location).toBe(oneOff.redirectUrl);

        const payment = await provider.getPayment(first.id);
        expect(payment).toMatchObject({
          status: 'paid',
          paidAt: new Date(START),
          mandateId: expect.stringMatching(/^mdt_[0-9A-Za-z]{10}$/),
        });
        const mandates = await provider.listMandates(customerId);
        // Paid without a card (the payer's bank, as with iDEAL): a SEPA direct-debit mandate, as Mollie makes.
        expect(mandates).toEqual([
          {
            id: payment.mandateId,
            method: 'directdebit',
            status: 'valid',
            mandateReference: null,
            signatureDate: '2026-11-21',
            details: { consumerName: 'Anna de Vries', consumerAccount: 'NL55INGB0000000000', consumerBic: 'INGBNL2A' },
          },
        ]);

        const again = await pay(first.id);
        expect(again.status).toBe(409);
        expect(await mandatesAtProvider(accountId)).toBe(1);

        const charge = await provider.createPayment(
          {
            ...oneOff,
            sequenceType: 'recurring',
            customerId,
            mandateId: payment.mandateId,
            redirectUrl: null,
            reference: 'pay_charge0001',
          },
          'charge-pay_charge0001',
        );
        expect(charge).toMatchObject({ status: 'pending', method: 'directdebit', mandateId: payment.mandateId, checkoutUrl: null });
        expect((await provider.getPayment(charge.id)).status).toBe('paid');
      },
    );

    it(
      "When it was a card payment, then the mandate is a card mandate in the customer's name, and recurring charges go to the " + 'card',
      async () => {
        const { provider, customerId, first } = await firstPaymentOfNewCustomer('creditcard');
        expect((await pay(first.id)).status).toBe(303);
        const { mandateId } = await provider.getPayment(first.id);
        expect(mandateId).not.toBeNull();
        expect(await provider.getMandate(customerId, String(mandateId))).toEqual({
          id: mandateId,
          method: 'creditcard',
          status: 'valid',
          mandateReference: null,
          signatureDate: '2026-11-21',
          details: { cardHolder: 'Anna de Vries', cardNumber: '4242', cardLabel: 'Visa', cardExpiryDate: '2029-12-31' },
        });

        const declined = await provider.createPayment(
          { ...oneOff, amount: 1013, sequenceType: 'recurring', customerId, mandateId, redirectUrl: null, reference: 'pay_charge0002' },
          'charge-pay_charge0002',
        );
        expect(declined.method).toBe('creditcard');
        expect(await provider.getPayment(declined.id)).toMatchObject({ status: 'failed', failureCode: 'insufficient_funds' });
      },
    );

    it('When two clicks on "paid" race, then one mandate is made', async () => {
      const { accountId, provider, first } = await firstPaymentOfNewCustomer(null);
      const answers = await Promise.all([pay(first.id), pay(first.id)]);
      expect(answers.map((a) => a.status)).toContain(303);
      expect(await mandatesAtProvider(accountId)).toBe(1);
      const { mandateId } = await provider.getPayment(first.id);
      expect(await t.ctx.db('sandbox_mandates').where({ account_id: accountId }).pluck('id')).toEqual([mandateId]);
    });

    it('When both clicks saw the payment open, then only the first completion moves it and makes a mandate', async () => {
      const { accountId, first } = await firstPaymentOfNewCustomer(null);
      const seenOpen = await t.ctx.db<SandboxPaymentRow>('sandbox_payments').where({ id: first.id }).first();
      if (!seenOpen) throw new Error('no sandbox payment');
      const moved = await Promise.all([
        completeCheckout(t.ctx.db, seenOpen, 'paid', t.clock.now()),
        completeCheckout(t.ctx.db, seenOpen, 'paid', t.clock.now()),
      ]);
      expect(moved.sort()).toEqual([false, true]);
      expect(await mandatesAtProvider(accountId)).toBe(1);
    });

    it('When a first payment fails, or a one-off payment is paid, then no mandate is made', async () => {
      const { accountId, provider, customerId, first } = await firstPaymentOfNewCustomer(null);
      expect((await request(t.app).post(`/sandbox/checkout/${first.id}`).type('form').send({ status: 'failed' })).status).toBe(303);
      const oneOffPayment = await provider.createPayment({ ...oneOff, customerId, reference: 'pay_oneoff0001' }, 'payment-pay_oneoff0001');
      expect((await pay(oneOffPayment.id)).status).toBe(303);
      expect((await provider.getPayment(first.id)).mandateId).toBeNull();
      expect((await provider.getPayment(oneOffPayment.id)).mandateId).toBeNull();
      expect(await mandatesAtProvider(accountId)).toBe(0);
    });
  });

  describe('refunds', () => {
    it('When a paid payment is refunded, then the refund settles when looked at; in full, the payment is refunded', async () => {
      const { provider } = await sandboxAccount();
      const made = await provider.createPayment({ ...oneOff, reference: 'pay_sandboxrefund1' }, 'payment-refund-1');
      const open = await t.ctx.db<SandboxPaymentRow>('sandbox_payments').where({ id: made.id }).first();
      if (!open) throw new Error('no sandbox payment');
      await completeCheckout(t.ctx.db, open, 'paid', t.clock.now());
      const input = { amount: 250, currency: 'EUR', description: 'Broken cup', reference: 'rfd_sandbox0001' };

      const refund = await provider.createRefund(made.id, input, 'refund-rfd_sandbox0001');
      expect(refund).toMatchObject({ paymentId: made.id, status: 'pending', amount: 250, reference: 'rfd_sandbox0001' });
      expect((await provider.createRefund(made.id, input, 'refund-rfd_sandbox0001')).id).toBe(refund.id);
      const tooMuch = await failureOf(provider.createRefund(made.id, { ...input, amount: 1001, reference: 'rfd_x' }, 'refund-rfd_x'));
      expect(tooMuch).toBeInstanceOf(ProviderRejectedError);

      expect(await provider.findRefundByReference(made.id, 'rfd_sandbox0001')).toMatchObject({ id: refund.id, status: 'refunded' });
      expect(await provider.getPayment(made.id)).toMatchObject({ status: 'paid', amountRefunded: 250 });
      await provider.createRefund(made.id, { ...input, amount: 1000, reference: 'rfd_rest' }, 'refund-rfd_rest');
      expect((await provider.listRefunds(made.id)).map((r) => r.status)).toEqual(['refunded', 'refunded']);
      expect(await provider.getPayment(made.id)).toMatchObject({ status: 'refunded', amountRefunded: 1250 });
      expect(await provider.findRefundByReference(made.id, 'rfd_none')).toBeNull();
    });

    it('When the payment is not paid, then a refund is refused', async () => {
      const { provider } = await sandboxAccount();
      const made = await provider.createPayment({ ...oneOff, reference: 'pay_sandboxrefund2' }, 'payment-refund-2');
      const input = { amount: 250, currency: 'EUR', description: 'x', reference: 'rfd_sandbox0002' };
      expect(await failureOf(provider.createRefund(made.id, input, 'refund-rfd_sandbox0002'))).toBeInstanceOf(ProviderRejectedError);
    });
  });
});

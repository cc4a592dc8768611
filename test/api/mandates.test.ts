import type { ProviderMandate } from '../../src/providers/types';
import { mandateResponse } from '../../src/modules/mandates/schemas';
import { TEST_DATABASES } from '../support/databases';
import { useTestApp } from '../support/testApp';

const VALID_IBAN = 'NL91ABNA0417164300';

describe.each(TEST_DATABASES)('mandates on %s', (kind) => {
  const t = useTestApp(kind);
  let token: string;
  let accountId: string;
  let customerId: string;

  const newCustomer = async (as = token): Promise<{ id: string; provider_customer_id: string }> => {
    const res = await t.as(as).post('/api/v2/customers', { first_name: 'Anna', last_name: 'de Vries', email: 'anna@example.nl' });
    expect(res.status).toBe(201);
    return res.body;
  };
  const mandatesPath = (id: string) => `/api/v2/customers/${id}/mandates`;
  const validMandate = { consumer_name: 'A. de Vries', consumer_account: VALID_IBAN };

  beforeAll(async () => {
    ({ token, accountId } = await t.newAccount());
    customerId = (await newCustomer()).id;
  });
  afterEach(() => {
    jest.restoreAllMocks();
    t.clock.set('2026-11-21T10:00:00Z');
  });

  describe('POST /api/v2/customers/{customerId}/mandates', () => {
    it('When the body is valid, then it answers 201 with the mandate field by field, the IBAN in electronic form', async () => {
      const res = await t.as(token).post(mandatesPath(customerId), {
        consumer_name: 'A. de Vries',
        consumer_account: 'nl91 abna 0417 1643 00',
        custom_mandate_reference: "ORDER-2026/11 (A) +?:.,'",
      });
      expect(res.status).toBe(201);
      expect(mandateResponse.parse(res.body)).toEqual(res.body);
      expect(Object.keys(res.body).sort()).toEqual(['custom_mandate_reference', 'details', 'id', 'method', 'signature_date', 'status']);
      expect(res.body.id).toMatch(/^mdt_[0-9A-Za-z]{10}$/);
      expect(res.body).toMatchObject({
        method: 'directdebit',
        status: 'valid',
        custom_mandate_reference: "ORDER-2026/11 (A) +?:.,'",
        signature_date: '2026-11-21',
      });
      // Exactly the direct-debit details; no card fields.
      expect(res.body.details).toEqual({ consumer_name: 'A. de Vries', consumer_account: VALID_IBAN, consumer_bic: null });

      const stored = await t.ctx.db('mandates').where({ id: res.body.id }).first();
      expect(stored).toMatchObject({ account_id: accountId, customer_id: customerId, status: 'valid', consumer_account: VALID_IBAN });
      expect(Boolean(stored.custom_reference)).toBe(true);
    });

    it('When no reference is given, then a unique RPS- reference is generated, returned and sent to the provider', async () => {
      const first = await t.as(token).post(mandatesPath(customerId), validMandate);
      const second = await t.as(token).post(mandatesPath(customerId), validMandate);
      expect(first.status).toBe(201);
      expect(second.status).toBe(201);
      expect(first.body.custom_mandate_reference).toMatch(/^RPS-[0-9A-Z]{12}$/);
      expect(second.body.custom_mandate_reference).toMatch(/^RPS-[0-9A-Z]{12}$/);
      expect(second.body.custom_mandate_reference).not.toBe(first.body.custom_mandate_reference);
      expect(second.body.id).not.toBe(first.body.id);

      const atProvider = await t.ctx.db('sandbox_mandates').where({ id: first.body.id }).first();
      expect(atProvider.mandate_reference).toBe(first.body.custom_mandate_reference);
      const stored = await t.ctx.db('mandates').where({ id: first.body.id }).first();
      expect(stored.mandate_reference).toBe(first.body.custom_mandate_reference);
      expect(Boolean(stored.custom_reference)).toBe(false);
    });

    it('When it is already tomorrow in APP_TIMEZONE but not in UTC, then the signature date is tomorrow', async () => {
      // 23:30 UTC on 21 November is 00:30 on 22 November in Amsterdam.
      t.clock.set('2026-11-21T23:30:00Z');
      const res = await t.as(token).post(mandatesPath(customerId), validMandate);
      expect(res.status).toBe(201);
      expect(res.body.signature_date).toBe('2026-11-22');
      const atProvider = await t.ctx.db('sandbox_mandates').where({ id: res.body.id }).first();
      expect(String(atProvider.signature_date).slice(0, 10)).toBe('2026-11-22');
    });

    it.each(['consumer_name', 'consumer_account'])('When %s is missing or empty, then it answers 422 naming that field', async (field) => {
      const expected = {
        status: 422,
        error: 'Could not create mandate. Some fields contain invalid data',
        code: 'validation_failed',
        fields: { [field]: [`The ${field.replace('_', ' ')} field is required.`] },
      };
      const body: Record<string, string> = { ...validMandate };
      delete body[field];
      const missing = await t.as(token).post(mandatesPath(customerId), body);
      expect(missing.status).toBe(422);
      expect(missing.body).toEqual(expected);
      const empty = await t.as(token).post(mandatesPath(customerId), { ...validMandate, [field]: '  ' });
      expect(empty.status).toBe(422);
      expect(empty.body).toEqual(expected);
    });

    it.each([
      ['a wrong check digit', 'NL92ABNA0417164300'],
      ['a mistyped account digit', 'NL91ABNA0417164301'],
      ['a length the country does not use', 'NL06ABNA04171643001'],
      ['a country without IBANs', 'US64SVBKUS6S3300958879'],
      ['a domestic account number', '417164300'],
    ])('When the consumer account has %s, then it answers 422 saying it must be a valid IBAN', async (_case, iban) => {
      const res = await t.as(token).post(mandatesPath(customerId), { ...validMandate, consumer_account: iban });
      expect(res.status).toBe(422);
      expect(res.body.fields).toEqual({ consumer_account: ['The consumer account field must be a valid IBAN.'] });
    });

    it.each([
      ['is longer than 35 characters', 'R'.repeat(36), 'The custom mandate reference field must not be greater than 35 characters.'],
      [
        'contains an underscore',
        'REF_1',
        "The custom mandate reference field may only contain letters, digits, spaces and + ? / - : ( ) . , '",
      ],
      [
        'contains an accented letter',
        'RÉF-1',
        "The custom mandate reference field may only contain letters, digits, spaces and + ? / - : ( ) . , '",
      ],
    ])('When the custom mandate reference %s, then it answers 422 for that field', async (_case, reference, message) => {
      const res = await t.as(token).post(mandatesPath(customerId), { ...validMandate, custom_mandate_reference: reference });
      expect(res.status).toBe(422);
      expect(res.body.fields).toEqual({ custom_mandate_reference: [message] });
    });

    it('When the custom mandate reference is exactly 35 allowed characters, then it is accepted', async () => {
      const reference = 'A'.repeat(34) + '9';
      const res = await t.as(token).post(mandatesPath(customerId), { ...validMandate, custom_mandate_reference: reference });
      expect(res.status).toBe(201);
      expect(res.body.custom_mandate_reference).toBe(reference);
    });

    it(
      'When the custom reference is already used in the account, in any case and for any customer, then it answers 422 and nothing ' +
        'is created',
      async () => {
        const taken = {
          status: 422,
          error: 'Could not create mandate. Some fields contain invalid data',
          code: 'validation_failed',
          fields: { custom_mandate_reference: ['The custom mandate reference has already been taken.'] },
        };
        const first = await t.as(token).post(mandatesPath(customerId), { ...validMandate, custom_mandate_reference: 'DUP-REF-1' });
        expect(first.status).toBe(201);
        const providerMandatesBefore = await t.ctx.db('sandbox_mandates').where({ account_id: accountId }).count({ n: '*' });

        const again = await t.as(token).post(mandatesPath(customerId), { ...validMandate, custom_mandate_reference: 'DUP-REF-1' });
        expect(again.status).toBe(422);
        expect(again.body).toEqual(taken);
        const otherCase = await t.as(token).post(mandatesPath(customerId), { ...validMandate, custom_mandate_reference: 'dup-ref-1' });
        expect(otherCase.body).toEqual(taken);
        const otherCustomer = (await newCustomer()).id;
        const forOther = await t.as(token).post(mandatesPath(otherCustomer), { ...validMandate, custom_mandate_reference: 'DUP-REF-1' });
        expect(forOther.body).toEqual(taken);

        const providerMandatesAfter = await t.ctx.db('sandbox_mandates').where({ account_id: accountId }).count({ n: '*' });
        expect(Number(providerMandatesAfter[0]?.n)).toBe(Number(providerMandatesBefore[0]?.n));
      },
    );

    it('When another account uses the same custom reference, then it is accepted: references are unique per account', async () => {
      await t.as(token).post(mandatesPath(customerId), { ...validMandate, custom_mandate_reference: 'SHARED-REF' });
      const other = await t.newAccount();
      const otherCustomer = await newCustomer(other.token);
      const res = await t.as(other.token).post(mandatesPath(otherCustomer.id), { ...validMandate, custom_mandate_reference: 'SHARED-REF' });
      expect(res.status).toBe(201);
      expect(res.body.custom_mandate_reference).toBe('SHARED-REF');
    });

    it(
      'When a concurrent request stores the same reference while the provider is called, then it answers 422 and revokes the mandate ' +
        'it got',
      async () => {
        const provider = await t.ctx.providers.forAccount({ id: accountId });
        const createAtProvider = provider.createMandate.bind(provider);
        const rival = await newCustomer();
        jest.spyOn(provider, 'createMandate').mockImplementation(async (input, key) => {
          const created = await createAtProvider(input, key);
          // The rival request wins the race for the reference between our check and our insert.
          await t.ctx.db('mandates').insert({
            id: 'mdt_rival00001',
            account_id: accountId,
            customer_id: rival.id,
            method: 'directdebit',
            status: 'valid',
            consumer_name: 'Rival',
            consumer_account: VALID_IBAN,
            mandate_reference: input.mandateReference,
            custom_reference: true,
            created_at: '2026-11-21 10:00:00',
            updated_at: '2026-11-21 10:00:00',
          });
          return created;
        });
        jest.spyOn(t.ctx.providers, 'forAccount').mockResolvedValue(provider);

        const res = await t.as(token).post(mandatesPath(customerId), { ...validMandate, custom_mandate_reference: 'RACE-REF' });
        expect(res.status).toBe(422);
        expect(res.body.fields).toEqual({ custom_mandate_reference: ['The custom mandate reference has already been taken.'] });
        const ours = await t.ctx.db('sandbox_mandates').where({ account_id: accountId, mandate_reference: 'RACE-REF' }).first();
        expect(ours.status).toBe('invalid');
        expect(await t.ctx.db('mandates').where({ id: ours.id }).first()).toBeUndefined();
      },
    );

    it(
      'When the provider answers with a card mandate, then details carry exactly the card fields and only the last card ' + 'digits',
      async () => {
        const card: ProviderMandate = {
          id: 'mdt_card000001',
          method: 'creditcard',
          status: 'valid',
          mandateReference: null,
          signatureDate: '2026-11-20',
          details: {
            cardHolder: 'A. de Vries',
            cardNumber: '411111******1111',
            cardExpiryDate: '2029-08-31',
            cardLabel: 'Visa',
            cardFingerprint: 'fp_abc123',
          },
        };
        const provider = await t.ctx.providers.forAccount({ id: accountId });
        jest.spyOn(provider, 'createMandate').mockResolvedValue(card);
        jest.spyOn(t.ctx.providers, 'forAccount').mockResolvedValue(provider);

        const res = await t.as(token).post(mandatesPath(customerId), { ...validMandate, custom_mandate_reference: 'CARD-1' });
        expect(res.status).toBe(201);
        expect(mandateResponse.parse(res.body)).toEqual(res.body);
        expect(res.body).toEqual({
          id: 'mdt_card000001',
          method: 'creditcard',
          status: 'valid',
          details: {
            card_holder: 'A. de Vries',
            card_number: '1111',
            card_expiry_date: '2029-08-31',
            card_label: 'Visa',
            card_fingerprint: 'fp_abc123',
          },
          custom_mandate_reference: 'CARD-1',
          signature_date: '2026-11-20',
        });
        const stored = await t.ctx.db('mandates').where({ id: 'mdt_card000001' }).first();
        expect(stored).toMatchObject({ method: 'creditcard', card_number: '1111', card_label: 'Visa' });
      },
    );

    it('When the customer has no customer at the provider yet, then it answers 409 and asks nothing of the provider', async () => {
      const customer = await newCustomer();
      await t.ctx.db('customers').where({ id: customer.id }).update({ provider_customer_id: null });
      const provider = await t.ctx.providers.forAccount({ id: accountId });
      const createAtProvider = jest.spyOn(provider, 'createMandate');
      jest.spyOn(t.ctx.providers, 'forAccount').mockResolvedValue(provider);
      const res = await t.as(token).post(mandatesPath(customer.id), validMandate);
      expect(res.status).toBe(409);
      expect(res.body).toEqual({
        status: 409,
        error: 'The customer is not known at the payment provider yet',
        code: 'customer_not_at_provider',
      });
      expect(createAtProvider).not.toHaveBeenCalled();
    });

    it('When the customer belongs to another account, then it answers 404 exactly like an unknown customer', async () => {
      const other = await t.newAccount();
      const foreignCustomer = await newCustomer(other.token);
      const foreign = await t.as(token).post(mandatesPath(foreignCustomer.id), validMandate);
      const unknown = await t.as(token).post(mandatesPath('cus_doesnotexist0000'), validMandate);
      expect(foreign.status).toBe(404);
      expect(foreign.body).toEqual({ status: 404, error: 'Customer not found', code: 'not_found' });
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual(foreign.body);
      expect(await t.ctx.db('sandbox_mandates').where({ customer_id: foreignCustomer.provider_customer_id })).toEqual([]);
    });

    it('When there is no token or a bad token, then it answers 401 and creates nothing', async () => {
      const before = await t.ctx.db('mandates').count({ n: '*' });
      const none = await t.as('').post(mandatesPath(customerId), validMandate).unset('Authorization');
      expect(none.status).toBe(401);
      expect(none.body).toMatchObject({ status: 401, code: 'unauthenticated' });
      const bad = await t.as(`rps_${'x'.repeat(40)}`).post(mandatesPath(customerId), validMandate);
      expect(bad.status).toBe(401);
      expect(bad.body).toMatchObject({ status: 401, code: 'unauthenticated' });
      const after = await t.ctx.db('mandates').count({ n: '*' });
      expect(Number(after[0]?.n)).toBe(Number(before[0]?.n));
    });
  });
});

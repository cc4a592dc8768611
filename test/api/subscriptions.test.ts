import { subscriptionsRepository } from '../../src/modules/subscriptions/repository';
import { subscriptionResponse } from '../../src/modules/subscriptions/schemas';
import { TEST_DATABASES } from '../support/databases';
import { useTestApp, TEST_PUBLIC_URL } from '../support/testApp';

const CREATE_FAILED = 'Could not create subscription. Some fields contain invalid data';

describe.each(TEST_DATABASES)('subscriptions on %s', (kind) => {
  const t = useTestApp(kind);
  let token: string;
  let accountId: string;
  let customerId: string;
  let mandateId: string;

  /** A customer and a valid mandate of theirs, made through the API. */
  const customerWithMandate = async (as: string): Promise<{ customerId: string; mandateId: string }> => {
    const customer = await t.as(as).post('/api/v2/customers', { first_name: 'Anna', last_name: 'de Vries', email: 'anna@example.nl' });
    expect(customer.status).toBe(201);
    const mandate = await t
      .as(as)
      .post(`/api/v2/customers/${customer.body.id}/mandates`, { consumer_name: 'A. de Vries', consumer_account: 'NL91ABNA0417164300' });
    expect(mandate.status).toBe(201);
    return { customerId: customer.body.id, mandateId: mandate.body.id };
  };

  const validRule = { amount: 12.5, interval: 'month', interval_amount: 1 };
  const validBody = () => ({
    name: 'Coffee box',
    customer_id: customerId,
    provider_profile_id: 'pfl_test123456',
    provider_mandate_id: mandateId,
    start_date: '2026-12-01',
    rules: [validRule],
  });
  const post = (body: object, as = token) => t.as(as).post('/api/v2/subscriptions', body);

  beforeAll(async () => {
    ({ token, accountId } = await t.newAccount());
    ({ customerId, mandateId } = await customerWithMandate(token));
  });
  afterEach(() => {
    jest.restoreAllMocks();
    t.clock.set('2026-11-21T10:00:00Z');
  });

  describe('POST /api/v2/subscriptions', () => {
    it('When the body is valid, then it answers 201 with the subscription, its rules and its customer field by field', async () => {
      const res = await post({
        ...validBody(),
        rules: [
          {
            amount: 12.5,
            interval: 'months',
            interval_amount: 1,
            day: 31,
            times: 12,
            invoice_rules: [
              { quantity: 2, description: 'Coffee beans 500 g', amount: 7.5, vat: '9', ledger_account_id: '8000' },
              // The VAT a store charged is kept by the service only: a request's is dropped.
              { quantity: 1, description: 'Loyalty discount', amount: -2.5, vat_amount: 1 },
            ],
          },
          { amount: 20, interval: 'month', interval_amount: 1 },
        ],
      });
      expect(res.status).toBe(201);
      expect(subscriptionResponse.strict().parse(res.body)).toEqual(res.body);
      expect(res.body.id).toMatch(/^sub_[0-9A-Za-z]{16}$/);
      expect(res.body).toMatchObject({
        name: 'Coffee box',
        status: 'active',
        start_date: '2026-12-01',
        // 10:00 UTC on 21 November is 11:00 in Amsterdam.
        created_at: '2026-11-21 11:00:00',
        provider_mandate_id: mandateId,
        provider_profile_id: 'pfl_test123456',
        next_payment_at: '2026-12-31',
        next_amount: '12.50',
        last_payment_created_at: null,
        resume_at: null,
        cancel_at: null,
      });
      expect(res.body.rules).toHaveLength(2);
      expect(res.body.rules[0].id).toMatch(/^rul_[0-9A-Za-z]{16}$/);
      expect(res.body.rules[0]).toEqual({
        id: res.body.rules[0].id,
        amount: '12.50',
        currency: 'EUR',
        interval: 'month',
        interval_amount: 1,
        day: 31,
        times_done: 0,
        times: 12,
      });
      // No day: the day of the start date. No times: until cancelled.
      expect(res.body.rules[1]).toEqual({
        id: res.body.rules[1].id,
        amount: '20.00',
        currency: 'EUR',
        interval: 'month',
        interval_amount: 1,
        day: 1,
        times_done: 0,
        times: null,
      });
      const customer = await t.as(token).get(`/api/v2/customers/${customerId}`);
      expect(res.body.customer).toEqual(customer.body);

      const invoiceLines = await t.ctx.db('invoice_rules').where({ subscription_rule_id: res.body.rules[0].id }).orderBy('position');
      expect(invoiceLines.map((line) => ({ ...line, amount: Number(line.amount) }))).toEqual([
        expect.objectContaining({
          account_id: accountId,
          position: 0,
          quantity: 2,
          description: 'Coffee beans 500 g',
          amount: 750,
          vat: '9',
          vat_amount: null,
          ledger_account_id: '8000',
        }),
        expect.objectContaining({
          account_id: accountId,
          position: 1,
          quantity: 1,
          description: 'Loyalty discount',
          amount: -250,
          vat: null,
          vat_amount: null,
          ledger_account_id: null,
        }),
      ]);
      const stored = await t.ctx.db('subscriptions').where({ id: res.body.id }).first();
      expect(stored).toMatchObject({
        account_id: accountId,
        customer_id: customerId,
        currency: 'EUR',
        workflow_id: null,
        docstyle_id: null,
      });
    });

    it('When the subscription is read back by id, then it equals what the create answered', async () => {
      const created = await post(validBody());
      const read = await t.as(token).get(`/api/v2/subscriptions/${created.body.id}`);
      expect(read.status).toBe(200);
      expect(read.body).toEqual(created.body);
    });

    it.each([
      ['days', 'day'],
      ['weeks', 'week'],
      ['months', 'month'],
      ['years', 'year'],
      ['week', 'week'],
      ['year', 'year'],
    ])('When the interval is %p, then it is accepted and stored as %p', async (sent, stored) => {
      const res = await post({ ...validBody(), rules: [{ ...validRule, interval: sent }] });
      expect(res.status).toBe(201);
      expect(res.body.rules[0].interval).toBe(stored);
    });

    it.each([
      ['a weekly rule without a day', { interval: 'week' }, 2, '2026-12-01'], // 1 December 2026 is a Tuesday
      ['a weekly rule on Monday', { interval: 'week', day: 1 }, 1, '2026-12-07'],
      ['a weekly rule on Sunday', { interval: 'week', day: 7 }, 7, '2026-12-06'],
      ['a monthly rule on the 15th', { interval: 'month', day: 15 }, 15, '2026-12-15'],
      ['a monthly rule with day 0', { interval: 'month', day: 0 }, 1, '2026-12-01'],
      ['a yearly rule on the 31st', { interval: 'year', day: 31 }, 31, '2026-12-31'],
      ['a daily rule', { interval: 'day' }, 0, '2026-12-01'],
    ])(
      'When the first rule is %s starting 2026-12-01, then it stores day %i and the first charge is %s',
      async (_case, rule, day, next) => {
        const res = await post({ ...validBody(), rules: [{ ...validRule, ...rule }] });
        expect(res.status).toBe(201);
        expect(res.body.rules[0].day).toBe(day);
        expect(res.body.next_payment_at).toBe(next);
      },
    );

    it('When the start date is today, then it is accepted and the first charge can be today', async () => {
      const res = await post({ ...validBody(), start_date: '2026-11-21', rules: [{ ...validRule, day: 0 }] });
      expect(res.status).toBe(201);
      expect(res.body.next_payment_at).toBe('2026-11-21');
    });

    it.each(['invalid', 'pending'])('When the mandate is %s, then the subscription is created as a draft', async (status) => {
      const { customerId: owner, mandateId: mandate } = await customerWithMandate(token);
      await t.ctx.db('mandates').where({ id: mandate }).update({ status });
      const res = await post({ ...validBody(), customer_id: owner, provider_mandate_id: mandate });
      expect(res.status).toBe(201);
      expect(res.body.status).toBe('draft');
    });

    it('When the mandate was revoked, then the subscription is created as a draft', async () => {
      const { customerId: owner, mandateId: mandate } = await customerWithMandate(token);
      await t.ctx.db('mandates').where({ id: mandate }).update({ revoked_at: '2026-11-20 10:00:00' });
      const res = await post({ ...validBody(), customer_id: owner, provider_mandate_id: mandate });
      expect(res.status).toBe(201);
      expect(res.body.status).toBe('draft');
    });

    it.each([
      ['name', 'The name field is required.'],
      ['customer_id', 'The customer id field is required.'],
      ['provider_profile_id', 'The provider profile id field is required.'],
      ['provider_mandate_id', 'The provider mandate id field is required.'],
      ['start_date', 'The start date field is required.'],
      ['rules', 'The rules field is required.'],
    ])('When %s is missing, then it answers 422 naming that field', async (field, message) => {
      const body: Record<string, unknown> = validBody();
      delete body[field];
      const res = await post(body);
      expect(res.status).toBe(422);
      expect(res.body).toEqual({ status: 422, error: CREATE_FAILED, code: 'validation_failed', fields: { [field]: [message] } });
    });

    it.each([
      ['amount', 'The rules.0.amount field is required.'],
      ['interval', 'The rules.0.interval field is required.'],
      ['interval_amount', 'The rules.0.interval amount field is required.'],
    ])('When rule field %s is missing, then it answers 422 naming rules.0.%s', async (field, message) => {
      const rule: Record<string, unknown> = { ...validRule };
      delete rule[field];
      const res = await post({ ...validBody(), rules: [rule] });
      expect(res.status).toBe(422);
      expect(res.body.fields).toEqual({ [`rules.0.${field}`]: [message] });
    });

    const dayMessages = {
      month: 'The rules.0.day field must be between 1 and 31 for a monthly or yearly rule.',
      week: 'The rules.0.day field must be between 1 and 7 (ISO weekday, Monday = 1) for a weekly rule.',
      day: 'The rules.0.day field must be 0 or absent when the interval is day.',
    };

    it.each([
      ['the rules are an empty list', { rules: [] }, 'rules', 'The rules field must have at least 1 item.'],
      [
        'there are 21 rules',
        { rules: Array.from({ length: 21 }, () => validRule) },
        'rules',
        'The rules field must not have more than 20 items.',
      ],
      [
        'the interval is not a unit',
        { rules: [{ ...validRule, interval: 'fortnight' }] },
        'rules.0.interval',
        'The selected rules.0.interval is invalid.',
      ],
      ['a monthly day is 32', { rules: [{ ...validRule, day: 32 }] }, 'rules.0.day', dayMessages.month],
      ['a monthly day is negative', { rules: [{ ...validRule, day: -1 }] }, 'rules.0.day', dayMessages.month],
      ['a yearly day is 32', { rules: [{ ...validRule, interval: 'years', day: 32 }] }, 'rules.0.day', dayMessages.month],
      ['a weekly day is 8', { rules: [{ ...validRule, interval: 'week', day: 8 }] }, 'rules.0.day', dayMessages.week],
      ['a daily rule names a day', { rules: [{ ...validRule, interval: 'day', day: 3 }] }, 'rules.0.day', dayMessages.day],
      ['the day is not an integer', { rules: [{ ...validRule, day: 1.5 }] }, 'rules.0.day', 'The rules.0.day field must be an integer.'],
      [
        'the amount has 3 decimals',
        { rules: [{ ...validRule, amount: 12.505 }] },
        'rules.0.amount',
        'The rules.0.amount field must have at most 2 decimals.',
      ],
      [
        'the amount is 1000.001',
        { rules: [{ ...validRule, amount: 1000.001 }] },
        'rules.0.amount',
        'The rules.0.amount field must have at most 2 decimals.',
      ],
      [
        'the amount is 12345.678',
        { rules: [{ ...validRule, amount: 12345.678 }] },
        'rules.0.amount',
        'The rules.0.amount field must have at most 2 decimals.',
      ],
      ['the amount is 0', { rules: [{ ...validRule, amount: 0 }] }, 'rules.0.amount', 'The rules.0.amount field must be greater than 0.'],
      [
        'the amount is negative',
        { rules: [{ ...validRule, amount: -5 }] },
        'rules.0.amount',
        'The rules.0.amount field must be greater than 0.',
      ],
      [
        'the amount is a string',
        { rules: [{ ...validRule, amount: '12.50' }] },
        'rules.0.amount',
        'The rules.0.amount field must be a number.',
      ],
      [
        'the interval amount is 0',
        { rules: [{ ...validRule, interval_amount: 0 }] },
        'rules.0.interval_amount',
        'The rules.0.interval amount field must be at least 1.',
      ],
      [
        'the interval amount is 1.5',
        { rules: [{ ...validRule, interval_amount: 1.5 }] },
        'rules.0.interval_amount',
        'The rules.0.interval amount field must be an integer.',
      ],
      ['the times are 0', { rules: [{ ...validRule, times: 0 }] }, 'rules.0.times', 'The rules.0.times field must be at least 1.'],
      [
        'the times are beyond the safe integers',
        { rules: [{ ...validRule, times: 2 ** 60 }] },
        'rules.0.times',
        'The rules.0.times field must be an integer.',
      ],
      [
        'the second rule is bad',
        { rules: [validRule, { ...validRule, interval: 'hour' }] },
        'rules.1.interval',
        'The selected rules.1.interval is invalid.',
      ],
      [
        'the start date is not a real day',
        { start_date: '2026-02-30' },
        'start_date',
        'The start date field must be a valid date (Y-m-d).',
      ],
      ['the start date is in d-m-Y', { start_date: '01-12-2026' }, 'start_date', 'The start date field must be a valid date (Y-m-d).'],
      [
        'the start date is yesterday',
        { start_date: '2026-11-20' },
        'start_date',
        'The start date field must be a date after or equal to today.',
      ],
      ['the name is empty', { name: '' }, 'name', 'The name field is required.'],
    ])('When %s, then it answers 422 for that field', async (_case, change, field, message) => {
      const res = await post({ ...validBody(), ...change });
      expect(res.status).toBe(422);
      expect(res.body).toEqual({ status: 422, error: CREATE_FAILED, code: 'validation_failed', fields: { [field]: [message] } });
    });

    it.each([
      ['quantity', 'is 0', { quantity: 0 }, 'The rules.0.invoice rules.0.quantity field must be at least 1.'],
      ['description', 'is missing', { description: undefined }, 'The rules.0.invoice rules.0.description field is required.'],
      ['amount', 'has 3 decimals', { amount: 1.005 }, 'The rules.0.invoice rules.0.amount field must have at most 2 decimals.'],
      ['amount', 'is 1000.001', { amount: 1000.001 }, 'The rules.0.invoice rules.0.amount field must have at most 2 decimals.'],
      ['amount', 'is -12345.678', { amount: -12345.678 }, 'The rules.0.invoice rules.0.amount field must have at most 2 decimals.'],
      ['amount', 'is missing', { amount: undefined }, 'The rules.0.invoice rules.0.amount field is required.'],
      ['vat', 'is a word', { vat: 'high' }, 'The rules.0.invoice rules.0.vat field must be a VAT percentage such as 21 or 9.5.'],
      ['vat', 'is over 100', { vat: '101' }, 'The rules.0.invoice rules.0.vat field must be a VAT percentage such as 21 or 9.5.'],
    ])(
      'When invoice rule field %s %s, then it answers 422 naming that field under rules.0.invoice_rules.0',
      async (field, _case, change, message) => {
        const line = { quantity: 1, description: 'Box', amount: 10, vat: '9.5', ...change };
        const res = await post({ ...validBody(), rules: [{ ...validRule, invoice_rules: [line] }] });
        expect(res.status).toBe(422);
        expect(res.body.fields).toEqual({ [`rules.0.invoice_rules.0.${field}`]: [message] });
      },
    );

    it('When it is already tomorrow in APP_TIMEZONE but not in UTC, then a start date of today in UTC is in the past', async () => {
      // 23:30 UTC on 21 November is 00:30 on 22 November in Amsterdam.
      t.clock.set('2026-11-21T23:30:00Z');
      const res = await post({ ...validBody(), start_date: '2026-11-21' });
      expect(res.status).toBe(422);
      expect(res.body.fields).toEqual({ start_date: ['The start date field must be a date after or equal to today.'] });
      const tomorrow = await post({ ...validBody(), start_date: '2026-11-22' });
      expect(tomorrow.status).toBe(201);
    });

    it('When the account has a bookkeeping system, then workflow_id and docstyle_id are required and stored', async () => {
      const bookkeeping = await t.newAccount();
      const own = await customerWithMandate(bookkeeping.token);
      await t.ctx.db('accounts').where({ id: bookkeeping.accountId }).update({ bookkeeping_system: 'moneybird' });
      const body = { ...validBody(), customer_id: own.customerId, provider_mandate_id: own.mandateId };

      const missing = await post(body, bookkeeping.token);
      expect(missing.status).toBe(422);
      expect(missing.body.fields).toEqual({
        workflow_id: ['The workflow id field is required when the account is connected to a bookkeeping system.'],
        docstyle_id: ['The docstyle id field is required when the account is connected to a bookkeeping system.'],
      });
      const onlyOne = await post({ ...body, workflow_id: 'wf_1' }, bookkeeping.token);
      expect(onlyOne.body.fields).toEqual({
        docstyle_id: ['The docstyle id field is required when the account is connected to a bookkeeping system.'],
      });

      const res = await post({ ...body, workflow_id: 'wf_1', docstyle_id: 'ds_1' }, bookkeeping.token);
      expect(res.status).toBe(201);
      const stored = await t.ctx.db('subscriptions').where({ id: res.body.id }).first();
      expect(stored).toMatchObject({ workflow_id: 'wf_1', docstyle_id: 'ds_1' });
    });

    it('When the account has no bookkeeping system, then workflow_id and docstyle_id are optional and kept when sent', async () => {
      const res = await post({ ...validBody(), workflow_id: 'wf_2', docstyle_id: 'ds_2' });
      expect(res.status).toBe(201);
      const stored = await t.ctx.db('subscriptions').where({ id: res.body.id }).first();
      expect(stored).toMatchObject({ workflow_id: 'wf_2', docstyle_id: 'ds_2' });
    });

    it('When the customer is unknown or belongs to another account, then it answers 422 for customer_id', async () => {
      const other = await t.newAccount();
      const foreign = await customerWithMandate(other.token);
      const expected = {
        status: 422,
        error: CREATE_FAILED,
        code: 'validation_failed',
        fields: { customer_id: ['The selected customer id is invalid.'] },
      };
      const foreignRes = await post({ ...validBody(), customer_id: foreign.customerId, provider_mandate_id: foreign.mandateId });
      expect(foreignRes.status).toBe(422);
      expect(foreignRes.body).toEqual(expected);
      const unknown = await post({ ...validBody(), customer_id: 'cus_doesnotexist0000' });
      expect(unknown.body).toEqual(expected);
    });

    it('When the mandate is unknown, of another customer, or of another account, then it answers 422 for provider_mandate_id', async () => {
      const sibling = await customerWithMandate(token);
      const other = await t.newAccount();
      const foreign = await customerWithMandate(other.token);
      const expected = {
        status: 422,
        error: CREATE_FAILED,
        code: 'validation_failed',
        fields: { provider_mandate_id: ['The selected provider mandate id is invalid.'] },
      };
      for (const mandate of [sibling.mandateId, foreign.mandateId, 'mdt_doesnotexist']) {
        const res = await post({ ...validBody(), provider_mandate_id: mandate });
        expect(res.status).toBe(422);
        expect(res.body).toEqual(expected);
      }
    });

    it('When several rules break together with the account checks, then every invalid field is reported at once', async () => {
      const res = await post({ ...validBody(), start_date: '2026-11-01', customer_id: 'cus_doesnotexist0000' });
      expect(res.status).toBe(422);
      expect(res.body.fields).toEqual({
        start_date: ['The start date field must be a date after or equal to today.'],
        customer_id: ['The selected customer id is invalid.'],
      });
    });

    it('When storing fails after the subscription row was written, then nothing of it remains', async () => {
      const before = await t.ctx.db('subscriptions').where({ account_id: accountId }).count({ n: '*' });
      const insertWithRules = subscriptionsRepository.insertWithRules;
      jest.spyOn(subscriptionsRepository, 'insertWithRules').mockImplementation(async (trx, row, rules) => {
        await insertWithRules(trx, row, rules, []);
        throw new Error('the database went away');
      });
      const res = await post(validBody());
      expect(res.status).toBe(500);
      const after = await t.ctx.db('subscriptions').where({ account_id: accountId }).count({ n: '*' });
      expect(Number(after[0]?.n)).toBe(Number(before[0]?.n));
      const orphanRules = await t.ctx.db('subscription_rules').whereNotIn('subscription_id', t.ctx.db('subscriptions').select('id'));
      expect(orphanRules).toEqual([]);
    });

    it('When there is no token or a bad token, then it answers 401', async () => {
      const none = await t.as('').post('/api/v2/subscriptions', validBody()).unset('Authorization');
      expect(none.status).toBe(401);
      expect(none.body).toMatchObject({ status: 401, code: 'unauthenticated' });
      const bad = await post(validBody(), `rps_${'x'.repeat(40)}`);
      expect(bad.status).toBe(401);
      expect(bad.body).toMatchObject({ status: 401, code: 'unauthenticated' });
    });
  });

  describe('GET /api/v2/subscriptions/{id}', () => {
    it('When the id belongs to another account, then it answers 404 exactly like an unknown id', async () => {
      const other = await t.newAccount();
      const own = await customerWithMandate(other.token);
      const created = await post({ ...validBody(), customer_id: own.customerId, provider_mandate_id: own.mandateId }, other.token);
      expect(created.status).toBe(201);
      const foreign = await t.as(token).get(`/api/v2/subscriptions/${created.body.id}`);
      const unknown = await t.as(token).get('/api/v2/subscriptions/sub_doesnotexist0000');
      expect(foreign.status).toBe(404);
      expect(foreign.body).toEqual({ status: 404, error: 'Subscription not found', code: 'not_found' });
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual(foreign.body);
    });

    it('When there is no token or a bad token, then it answers 401', async () => {
      const none = await t.as('').get('/api/v2/subscriptions/sub_doesnotexist0000').unset('Authorization');
      expect(none.status).toBe(401);
      const bad = await t.as(`rps_${'x'.repeat(40)}`).get('/api/v2/subscriptions/sub_doesnotexist0000');
      expect(bad.status).toBe(401);
    });
  });

  describe('GET /api/v2/subscriptions', () => {
    it('When an account has 7 subscriptions, then pages of 3 carry the documented envelope, in creation order', async () => {
      const own = await t.newAccount();
      const { customerId: owner, mandateId: mandate } = await customerWithMandate(own.token);
      for (let i = 0; i < 7; i += 1) {
        const res = await post({ ...validBody(), name: `S${i}`, customer_id: owner, provider_mandate_id: mandate }, own.token);
        expect(res.status).toBe(201);
      }
      const path = `${TEST_PUBLIC_URL}/api/v2/subscriptions`;
      const names = (body: { data: Array<{ name: string }> }) => body.data.map((s) => s.name);

      const page1 = await t.as(own.token).get('/api/v2/subscriptions?per_page=3');
      expect(page1.status).toBe(200);
      expect(names(page1.body)).toEqual(['S0', 'S1', 'S2']);
      for (const item of page1.body.data) expect(subscriptionResponse.strict().parse(item)).toEqual(item);
      expect(page1.body.data[0].customer.id).toBe(owner);
      expect(page1.body.data[0].rules).toHaveLength(1);
      expect(page1.body.links).toEqual({
        first: `${path}?page=1&per_page=3`,
        last: `${path}?page=3&per_page=3`,
        prev: '',
        next: `${path}?page=2&per_page=3`,
      });
      expect(page1.body.meta).toEqual({ current_page: 1, last_page: 3, per_page: 3, total: 7, from: 1, to: 3, path });

      const page2 = await t.as(own.token).get('/api/v2/subscriptions?page=2&per_page=3');
      expect(names(page2.body)).toEqual(['S3', 'S4', 'S5']);
      expect(page2.body.links).toEqual({
        first: `${path}?page=1&per_page=3`,
        last: `${path}?page=3&per_page=3`,
        prev: `${path}?page=1&per_page=3`,
        next: `${path}?page=3&per_page=3`,
      });
      expect(page2.body.meta).toMatchObject({ current_page: 2, from: 4, to: 6 });

      const page3 = await t.as(own.token).get('/api/v2/subscriptions?page=3&per_page=3');
      expect(names(page3.body)).toEqual(['S6']);
      expect(page3.body.links.next).toBe('');
      expect(page3.body.links.prev).toBe(`${path}?page=2&per_page=3`);
      expect(page3.body.meta).toMatchObject({ current_page: 3, last_page: 3, from: 7, to: 7 });

      const past = await t.as(own.token).get('/api/v2/subscriptions?page=4&per_page=3');
      expect(past.status).toBe(200);
      expect(past.body.data).toEqual([]);
      expect(past.body.meta).toMatchObject({ current_page: 4, last_page: 3, from: null, to: null, total: 7 });

      const defaults = await t.as(own.token).get('/api/v2/subscriptions');
      expect(names(defaults.body)).toEqual(['S0', 'S1', 'S2', 'S3', 'S4', 'S5', 'S6']);
      expect(defaults.body.meta).toEqual({ current_page: 1, last_page: 1, per_page: 15, total: 7, from: 1, to: 7, path });
      expect(defaults.body.links).toEqual({ first: `${path}?page=1`, last: `${path}?page=1`, prev: '', next: '' });
    });

    it("When the account has no subscriptions, then the list is empty and other accounts' subscriptions never show", async () => {
      const empty = await t.newAccount();
      const res = await t.as(empty.token).get('/api/v2/subscriptions');
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual([]);
      expect(res.body.meta).toMatchObject({ total: 0, from: null, to: null, last_page: 1 });
    });

    it('When page or per_page is out of range, then it answers 422 naming the parameter', async () => {
      const res = await t.as(token).get('/api/v2/subscriptions?per_page=101');
      expect(res.status).toBe(422);
      expect(res.body.fields).toEqual({ per_page: ['The per page field must not be greater than 100.'] });
    });

    it('When there is no token or a bad token, then it answers 401', async () => {
      const none = await t.as('').get('/api/v2/subscriptions').unset('Authorization');
      expect(none.status).toBe(401);
      const bad = await t.as(`rps_${'x'.repeat(40)}`).get('/api/v2/subscriptions');
      expect(bad.status).toBe(401);
    });
  });
});

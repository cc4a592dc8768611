import { paymentLinkResponse } from '../../src/modules/links/schemas';
import { TEST_DATABASES } from '../support/databases';
import { seedCustomer, seedProduct } from '../support/seed';
import { useTestApp, TEST_PUBLIC_URL } from '../support/testApp';

/** POST /api/v2/links (extension): each type, every rule of its fields, and DELETE. The clock stands at 2026-11-21 10:00 UTC. */
describe.each(TEST_DATABASES)('creating payment links on %s', (kind) => {
  const t = useTestApp(kind);
  let token: string;
  let accountId: string;

  beforeAll(async () => {
    ({ token, accountId } = await t.newAccount());
  });

  const create = (body: Record<string, unknown>) => t.as(token).post('/api/v2/links', body);

  async function expectFieldErrors(body: Record<string, unknown>, fields: Record<string, string[]>) {
    const res = await create(body);
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ status: 422, error: 'Could not create payment link. Some fields contain invalid data' });
    expect(res.body.fields).toEqual(fields);
    return res;
  }

  describe('type payment', () => {
    it('When a payment link is created, then it answers 201 with the link, open and active, at {PUBLIC_URL}/pay/{id}', async () => {
      const res = await create({
        type: 'payment',
        description: 'Invoice 2026-042',
        amount: 25,
        expires_at: '2026-12-31',
        redirect_url_paid: 'https://shop.example/thanks',
        redirect_url_failed: 'https://shop.example/sorry',
      });
      expect(res.status).toBe(201);
      expect(paymentLinkResponse.strict().parse(res.body)).toEqual(res.body);
      expect(res.body).toEqual({
        id: expect.stringMatching(/^lnk_/),
        status: 'open',
        active: true,
        type: 'payment',
        description: 'Invoice 2026-042',
        currency: 'EUR',
        created_at: '2026-11-21 11:00:00',
        url: `${TEST_PUBLIC_URL}/pay/${res.body.id}`,
        amount: '25.00',
        first_amount: null,
        interval: null,
        times: null,
        trial_interval: null,
        reminder_at: null,
        redirect_url_paid: 'https://shop.example/thanks',
        redirect_url_failed: 'https://shop.example/sorry',
        expires_at: '2026-12-31',
        customer: null,
        subscription: null,
      });
      expect((await t.as(token).get(`/api/v2/links/${res.body.id}`)).body).toEqual(res.body);
    });

    it('When a payment link has no amount, then 422 on amount', async () => {
      await expectFieldErrors(
        { type: 'payment', description: 'No amount' },
        { amount: ['The amount field is required when type is payment.'] },
      );
    });

    it('When a payment link names fields of a subscription, then each is refused', async () => {
      await expectFieldErrors(
        { type: 'payment', description: 'Mixed', amount: 5, interval: 'month', trial_interval: '14 days', first_amount: 1 },
        {
          interval: ['The interval field is prohibited when type is payment.'],
          trial_interval: ['The trial interval field is prohibited when type is payment.'],
          first_amount: ['The first amount field is prohibited when type is payment.'],
        },
      );
    });

    it('When the amount has three decimals, then 422 on amount', async () => {
      await expectFieldErrors(
        { type: 'payment', description: 'x', amount: 25.001 },
        { amount: ['The amount field must have at most 2 decimals.'] },
      );
    });
  });

  describe('type subscription', () => {
    it(
      'When it is given rules and a trial, then amount, interval and times describe the regular charges and first_amount is paid ' + 'now',
      async () => {
        const customer = await seedCustomer(t.ctx.db, accountId);
        const res = await create({
          type: 'subscription',
          description: 'Coffee club',
          first_amount: 5,
          rules: [{ amount: 9.95, interval: 'months', interval_amount: 1, times: 12 }],
          trial_interval: '14 days',
          customer_id: customer.id,
          reminder_at: '2026-11-25 09:00:00',
        });
        expect(res.status).toBe(201);
        expect(res.body).toMatchObject({
          type: 'subscription',
          amount: '9.95',
          first_amount: '5.00',
          interval: 'month',
          times: 12,
          trial_interval: '14 days',
          reminder_at: '2026-11-25 09:00:00',
          customer: { id: customer.id, email: customer.email },
          subscription: null,
        });
        const stored = await t.ctx.db('payment_links').where({ id: res.body.id }).first();
        // 09:00 in Amsterdam (CET) is 08:00 UTC; rules are kept in cents for the fulfilment.
        expect(stored.reminder_at).toBe('2026-11-25 08:00:00');
        expect(JSON.parse(stored.rules)).toEqual([{ amount: 995, interval: 'month', interval_amount: 1, times: 12 }]);
      },
    );

    it('When it is given amount and interval, then that is its one rule and first_amount defaults to the regular amount', async () => {
      const res = await create({ type: 'subscription', description: 'Weekly box', amount: 12.5, interval: 'week', interval_amount: 2 });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ amount: '12.50', first_amount: '12.50', interval: 'week', times: null });
      const stored = await t.ctx.db('payment_links').where({ id: res.body.id }).first();
      expect(JSON.parse(stored.rules)).toEqual([{ amount: 1250, interval: 'week', interval_amount: 2, day: null, times: null }]);
    });

    it('When it is given a subscription product, then the product gives the rule and, by default, the description', async () => {
      const product = await seedProduct(t.ctx.db, accountId, {
        type: 'subscription',
        name: 'Tea of the month',
        amount: 1500,
        interval: 'month',
        interval_value: 1,
        times: 6,
      });
      const res = await create({ type: 'subscription', product_id: product.id });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ description: 'Tea of the month', amount: '15.00', interval: 'month', times: 6 });
    });

    it('When it has neither rules, nor a product, nor an interval, then 422 on rules', async () => {
      await expectFieldErrors(
        { type: 'subscription', description: 'Nothing to charge' },
        { rules: ['The rules field is required when type is subscription, unless product_id or amount and interval are given.'] },
      );
    });

    it('When it has an interval without amount, then 422 on amount', async () => {
      await expectFieldErrors(
        { type: 'subscription', description: 'x', interval: 'month' },
        { amount: ['The amount field is required when interval is given.'] },
      );
    });

    it('When it has two ways of charging, then 422 on rules', async () => {
      await expectFieldErrors(
        {
          type: 'subscription',
          description: 'x',
          amount: 5,
          interval: 'month',
          rules: [{ amount: 5, interval: 'month', interval_amount: 1 }],
        },
        { rules: ['Give the regular charges one way: rules, product_id, or amount and interval.'] },
      );
    });

    it('When a rule is invalid, then 422 names the rule field by its path', async () => {
      await expectFieldErrors(
        { type: 'subscription', description: 'x', rules: [{ amount: 0, interval: 'fortnight', interval_amount: 1 }] },
        { 'rules.0.amount': ['The rules.0.amount field must be greater than 0.'], 'rules.0.interval': [expect.any(String)] },
      );
    });

    it('When the product is unknown, of another account or not a subscription product, then 422 on product_id', async () => {
      const { accountId: otherAccount } = await t.newAccount();
      const foreign = await seedProduct(t.ctx.db, otherAccount, { type: 'subscription', interval: 'month', interval_value: 1 });
      const once = await seedProduct(t.ctx.db, accountId, { type: 'once' });
      await expectFieldErrors({ type: 'subscription', product_id: 'prd_unknown' }, { product_id: ['The selected product id is invalid.'] });
      await expectFieldErrors({ type: 'subscription', product_id: foreign.id }, { product_id: ['The selected product id is invalid.'] });
      await expectFieldErrors(
        { type: 'subscription', product_id: once.id },
        { product_id: ['The product id field must name a subscription product.'] },
      );
    });

    it('When the trial is not a number and a unit, then 422 on trial_interval', async () => {
      await expectFieldErrors(
        { type: 'subscription', description: 'x', amount: 5, interval: 'month', trial_interval: 'two weeks' },
        { trial_interval: ['The trial interval field must be a number and a unit, such as 14 days.'] },
      );
    });
  });

  describe('type mandate', () => {
    it('When a mandate link has no first_amount, then the first payment is 0.01', async () => {
      const res = await create({ type: 'mandate', description: 'Authorise direct debit' });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ type: 'mandate', amount: '0.01', first_amount: '0.01', interval: null, times: null });
    });

    it('When a mandate link names an amount or rules, then they are refused', async () => {
      await expectFieldErrors(
        { type: 'mandate', description: 'x', amount: 5, rules: [{ amount: 5, interval: 'month', interval_amount: 1 }] },
        {
          amount: ['The amount field is prohibited when type is mandate.'],
          rules: ['The rules field is prohibited when type is mandate.'],
        },
      );
    });
  });

  describe('fields of every type', () => {
    it('When the type is missing or unknown, then 422 on type', async () => {
      await expectFieldErrors({ description: 'x', amount: 5 }, { type: ['The type field is required.'] });
      const res = await create({ type: 'donation', description: 'x', amount: 5 });
      expect(res.status).toBe(422);
      expect(res.body.fields.type).toEqual([expect.stringMatching(/invalid/)]);
    });

    it('When expires_at is in the past, then 422; today is still allowed', async () => {
      await expectFieldErrors(
        { type: 'payment', description: 'x', amount: 5, expires_at: '2026-11-20' },
        {
          expires_at: ['The expires at field must be a date after or equal to today.'],
        },
      );
      expect((await create({ type: 'payment', description: 'x', amount: 5, expires_at: '2026-11-21' })).status).toBe(201);
    });

    it('When reminder_at is in the past, malformed, or after expires_at, then 422 on reminder_at', async () => {
      const { id: customerId } = await seedCustomer(t.ctx.db, accountId);
      const link = { type: 'payment', description: 'x', amount: 5, customer_id: customerId };
      await expectFieldErrors(
        { ...link, reminder_at: '2026-11-21 10:59:59' },
        {
          reminder_at: ['The reminder at field must be a date-time in the future.'],
        },
      );
      await expectFieldErrors(
        { ...link, reminder_at: 'tomorrow' },
        {
          reminder_at: ['The reminder at field must be a valid date-time (Y-m-d H:i:s).'],
        },
      );
      await expectFieldErrors(
        { ...link, reminder_at: '2026-12-02 09:00:00', expires_at: '2026-12-01' },
        {
          reminder_at: ['The reminder at field must be on or before the expires at date.'],
        },
      );
    });

    it('When reminder_at is given without a customer to e-mail, then 422 on customer_id', async () => {
      await expectFieldErrors(
        { type: 'payment', description: 'x', amount: 5, reminder_at: '2026-11-25 09:00:00' },
        {
          customer_id: ['The customer id field is required when reminder at is given.'],
        },
      );
    });

    it('When the customer is unknown or of another account, then 422 on customer_id', async () => {
      const { accountId: otherAccount } = await t.newAccount();
      const foreign = await seedCustomer(t.ctx.db, otherAccount);
      for (const customerId of ['cus_unknown', foreign.id]) {
        await expectFieldErrors(
          { type: 'payment', description: 'x', amount: 5, customer_id: customerId },
          { customer_id: ['The selected customer id is invalid.'] },
        );
      }
    });

    it('When redirect URLs are not http(s), the description is missing or the currency is not EUR, then each field is named', async () => {
      const res = await create({
        type: 'payment',
        amount: 5,
        currency: 'USD',
        redirect_url_paid: 'javascript:alert(1)',
        redirect_url_failed: 'ftp://x',
      });
      expect(res.status).toBe(422);
      expect(Object.keys(res.body.fields).sort()).toEqual(['currency', 'description', 'redirect_url_failed', 'redirect_url_paid']);
    });

    it('When the same Idempotency-Key is sent twice, then one link is made and both answers are the same', async () => {
      const body = { type: 'payment', description: 'Once only', amount: 7 };
      const first = await t.as(token).post('/api/v2/links', body).set('Idempotency-Key', 'link-once-1');
      const second = await t.as(token).post('/api/v2/links', body).set('Idempotency-Key', 'link-once-1');
      expect(first.status).toBe(201);
      expect(second.body.id).toBe(first.body.id);
      expect(await t.ctx.db('payment_links').where({ account_id: accountId, description: 'Once only' }).count({ n: '*' })).toEqual([
        { n: 1 },
      ]);
    });
  });

  describe('DELETE /api/v2/links/{id}', () => {
    it('When an open link is deleted, then it is inactive and cancelled, and repeating it changes nothing', async () => {
      const { body: link } = await create({ type: 'payment', description: 'Withdrawn', amount: 5 });
      const res = await t.as(token).delete(`/api/v2/links/${link.id}`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: link.id, active: false, status: 'cancelled' });
      const again = await t.as(token).delete(`/api/v2/links/${link.id}`);
      expect(again.body).toEqual(res.body);
    });

    it('When a paid link is deleted, then it is made inactive but stays paid', async () => {
      const { body: link } = await create({ type: 'payment', description: 'Already paid', amount: 5 });
      await t.ctx.db('payment_links').where({ id: link.id }).update({ status: 'paid' });
      const res = await t.as(token).delete(`/api/v2/links/${link.id}`);
      expect(res.body).toMatchObject({ active: false, status: 'paid' });
    });

    it('When the link is unknown or of another account, then 404 and the other account’s link is untouched', async () => {
      const other = await t.newAccount();
      const { body: foreign } = await t.as(other.token).post('/api/v2/links', { type: 'payment', description: 'Theirs', amount: 5 });
      for (const id of ['lnk_unknown', foreign.id]) {
        const res = await t.as(token).delete(`/api/v2/links/${id}`);
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ status: 404, error: 'Payment link not found', code: 'not_found' });
      }
      expect((await t.as(other.token).get(`/api/v2/links/${foreign.id}`)).body).toMatchObject({ active: true, status: 'open' });
    });
  });
});

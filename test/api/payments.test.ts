import request from 'supertest';
import { paymentDetailResponse, paymentResponse } from '../../src/modules/payments/schemas';
import { TEST_DATABASES } from '../support/databases';
import { useTestApp, TEST_PUBLIC_URL } from '../support/testApp';

describe.each(TEST_DATABASES)('payments on %s', (kind) => {
  const t = useTestApp(kind);
  let token: string;
  let providerCustomerId: string;

  beforeAll(async () => {
    ({ token } = await t.newAccount());
    const customer = await t.as(token).post('/api/v2/customers', { first_name: 'Piet', last_name: 'Bakker', email: 'piet@example.nl' });
    providerCustomerId = customer.body.provider_customer_id;
  });

  const validPayment = () => ({
    amount: 12.5,
    currency: 'EUR',
    provider_customer_id: providerCustomerId,
    description: 'Order 1001',
    redirect_url: 'https://shop.example/thanks',
  });

  describe('POST /api/v2/payments', () => {
    it('When the body is valid, then it answers 201 with an open payment and a sandbox checkout address', async () => {
      const res = await t
        .as(token)
        .post('/api/v2/payments', { ...validPayment(), method: 'ideal', webhook_url: 'https://shop.example/hook' });
      expect(res.status).toBe(201);
      expect(paymentResponse.strict().parse(res.body)).toEqual(res.body);
      expect(res.body.id).toMatch(/^pay_[0-9A-Za-z]{16}$/);
      expect(res.body.provider_payment_id).toMatch(/^tr_[0-9A-Za-z]{10}$/);
      expect(res.body.status).toBe('open');
      expect(res.body.provider_checkout_url).toBe(`${TEST_PUBLIC_URL}/sandbox/checkout/${res.body.provider_payment_id}`);

      const stored = await t.ctx.db('payments').where({ id: res.body.id }).first();
      expect(Number(stored.amount)).toBe(1250);
    });

    it.each(['amount', 'currency', 'provider_customer_id', 'description', 'redirect_url'])(
      'When %s is missing, then it answers 422 naming that field',
      async (field) => {
        const body: Record<string, unknown> = validPayment();
        delete body[field];
        const res = await t.as(token).post('/api/v2/payments', body);
        expect(res.status).toBe(422);
        expect(res.body).toEqual({
          status: 422,
          error: 'Could not create payment. Some fields contain invalid data',
          code: 'validation_failed',
          fields: { [field]: [`The ${field.replace(/_/g, ' ')} field is required.`] },
        });
      },
    );

    it.each([
      ['currency', 'USD', 'The account cannot charge USD; it accepts: EUR.'],
      ['method', 'paypal', 'The selected method is invalid.'],
      ['amount', 10.005, 'The amount field must have at most 2 decimals.'],
      ['amount', 1000.001, 'The amount field must have at most 2 decimals.'],
      ['amount', 12345.678, 'The amount field must have at most 2 decimals.'],
      ['amount', 0, 'The amount field must be greater than 0.'],
      ['amount', -5, 'The amount field must be greater than 0.'],
      ['amount', '12.50', 'The amount field must be a number.'],
      ['redirect_url', 'not a url', 'The redirect url field must be a valid URL.'],
      ['redirect_url', 'ftp://shop.example/x', 'The redirect url field must be a valid URL.'],
      ['webhook_url', 'javascript:alert(1)', 'The webhook url field must be a valid URL.'],
    ])('When %s is %p, then it answers 422 with a message for that field', async (field, value, message) => {
      const res = await t.as(token).post('/api/v2/payments', { ...validPayment(), [field]: value });
      expect(res.status).toBe(422);
      expect(res.body.fields).toEqual({ [field]: [message] });
    });

    it('When provider_customer_id belongs to another account, then it answers 422 and creates nothing', async () => {
      const other = await t.newAccount();
      const foreign = await t.as(other.token).post('/api/v2/customers', { first_name: 'X', last_name: 'Y', email: 'x@example.nl' });
      const before = await t.ctx.db('payments').count({ n: '*' });
      const res = await t
        .as(token)
        .post('/api/v2/payments', { ...validPayment(), provider_customer_id: foreign.body.provider_customer_id });
      expect(res.status).toBe(422);
      expect(res.body.fields).toEqual({ provider_customer_id: ['The selected provider customer id is invalid.'] });
      expect(await t.ctx.db('payments').count({ n: '*' })).toEqual(before);
    });

    it('When no token is sent, or a bad one, then it answers 401', async () => {
      const none = await request(t.app).post('/api/v2/payments').send(validPayment());
      const bad = await request(t.app)
        .post('/api/v2/payments')
        .set('Authorization', 'Bearer rps_00000000000000000000000000000000')
        .send(validPayment());
      for (const res of [none, bad]) {
        expect(res.status).toBe(401);
        expect(res.body).toMatchObject({ status: 401, code: 'unauthenticated' });
      }
    });
  });

  describe('the sandbox checkout and GET /api/v2/payments/{id}', () => {
    it('When the payer picks "paid", then the payment becomes paid with its history and the payer is sent back', async () => {
      const created = await t.as(token).post('/api/v2/payments', validPayment());
      const checkoutPath = new URL(created.body.provider_checkout_url).pathname;

      const page = await request(t.app).get(checkoutPath);
      expect(page.status).toBe(200);
      expect(page.type).toBe('text/html');
      for (const outcome of ['paid', 'failed', 'canceled', 'expired']) expect(page.text).toContain(`value="${outcome}"`);
      expect(page.text).toContain('EUR 12.50');

      t.clock.advance(90_000);
      const done = await request(t.app).post(checkoutPath).type('form').send({ status: 'paid' });
      expect(done.status).toBe(303);
      expect(done.headers.location).toBe('https://shop.example/thanks');

      const read = await t.as(token).get(`/api/v2/payments/${created.body.id}`);
      expect(read.status).toBe(200);
      expect(paymentDetailResponse.strict().parse(read.body)).toEqual(read.body);
      expect(read.body).toMatchObject({
        id: created.body.id,
        provider_payment_id: created.body.provider_payment_id,
        status: 'paid',
        amount: '12.50',
        currency: 'EUR',
        description: 'Order 1001',
        failure_reason: null,
        paid_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
      });
      expect(read.body.status_history.map((change: { status: string }) => change.status)).toEqual(['open', 'paid']);
    });

    it.each(['failed', 'canceled', 'expired'] as const)(
      'When the payer picks "%s", then the payment takes that status',
      async (outcome) => {
        const created = await t.as(token).post('/api/v2/payments', validPayment());
        await request(t.app).post(new URL(created.body.provider_checkout_url).pathname).type('form').send({ status: outcome });
        const read = await t.as(token).get(`/api/v2/payments/${created.body.id}`);
        expect(read.body.status).toBe(outcome);
        expect(read.body.paid_at).toBeNull();
      },
    );

    it('When a completed checkout is submitted again, then it answers 409 and the status does not change', async () => {
      const created = await t.as(token).post('/api/v2/payments', validPayment());
      const checkoutPath = new URL(created.body.provider_checkout_url).pathname;
      await request(t.app).post(checkoutPath).type('form').send({ status: 'paid' });
      const again = await request(t.app).post(checkoutPath).type('form').send({ status: 'expired' });
      expect(again.status).toBe(409);
      const read = await t.as(token).get(`/api/v2/payments/${created.body.id}`);
      expect(read.body.status).toBe('paid');
      expect(read.body.status_history).toHaveLength(2);
    });

    it('When the checkout gets no or an unknown outcome, then it answers 422 and the payment stays open', async () => {
      const created = await t.as(token).post('/api/v2/payments', validPayment());
      const checkoutPath = new URL(created.body.provider_checkout_url).pathname;
      expect((await request(t.app).post(checkoutPath).type('form').send({ status: 'refunded' })).status).toBe(422);
      expect((await request(t.app).post(checkoutPath).type('form').send({})).status).toBe(422);
      expect((await t.as(token).get(`/api/v2/payments/${created.body.id}`)).body.status).toBe('open');
    });

    it('When the checkout id is unknown, then the page answers 404', async () => {
      expect((await request(t.app).get('/sandbox/checkout/tr_unknown0000')).status).toBe(404);
    });

    it('When the payment belongs to another account or does not exist, then GET answers 404', async () => {
      const other = await t.newAccount();
      const created = await t.as(token).post('/api/v2/payments', validPayment());
      const foreign = await t.as(other.token).get(`/api/v2/payments/${created.body.id}`);
      const unknown = await t.as(token).get('/api/v2/payments/pay_0000000000000000');
      expect(foreign.status).toBe(404);
      expect(foreign.body).toEqual({ status: 404, error: 'Payment not found', code: 'not_found' });
      expect(unknown.body).toEqual(foreign.body);
    });
  });
});

import request from 'supertest';
import { cli } from '../cli/runInMemory';
import { TEST_DATABASES } from '../support/databases';
import { MollieFake, REFUSALS } from '../../fakes/mollie/fake';
import { serveWithNock } from '../../fakes/mollie/nock';
import { billableAccountWithToken, mollieCallsWebhook } from '../support/paidCharges';
import { useTestApp } from '../support/testApp';

const MINUTE = 60_000;
const PAYMENTS = /^\/v2\/payments/;
const CUSTOMER_PAYMENTS = /^\/v2\/customers\/[^/]+\/payments/;

/**
 * A first call whose answer was lost may have made the payment at Mollie; the call that resumes it
 * is then refused — rate limited, credentials refused, or its idempotency key "used with other
 * parameters" because PUBLIC_URL changed in between. None of these says the payment does not exist:
 * the row stays `creating` (resumed later, after the Retry-After) or is found by our id at Mollie,
 * and is never given up as rejected while Mollie holds it. Each case ends with one payment at the
 * fake, the charge paid, and nobody asked to pay again (no link, no follow-up).
 */
type Refusal = 'rate limited' | 'credentials refused' | 'key reused';
const REFUSED: Refusal[] = ['rate limited', 'credentials refused', 'key reused'];

describe.each(TEST_DATABASES)('refused resumes of a lost payment, on %s', (kind) => {
  const t = useTestApp(kind, { perTest: true, audited: true });
  let fake: MollieFake;
  let served: { stop(): void };
  let accountId: string;
  let token: string;

  beforeEach(async () => {
    t.clock.set('2026-12-01T06:00:00Z');
    fake = new MollieFake('https://api.mollie.com');
    fake.now = () => t.clock.now().getTime();
    served = serveWithNock(fake);
    ({ accountId, token } = await billableAccountWithToken(t, fake));
  });
  afterEach(async () => {
    served.stop();
  });

  const bill = async (date = '2026-12-01') => {
    const run = await cli(t.ctx, 'billing', 'run', '--date', date);
    expect(run.code).toBe(0);
    return run.out.join('\n');
  };
  const chargePayments = () => t.ctx.db('payments').where({ account_id: accountId, purpose: 'charge' });
  const charges = () => t.ctx.db('subscription_charges').where({ account_id: accountId });
  const nobodyAskedToPayAgain = async () => {
    expect(await t.ctx.db('payment_links').where({ account_id: accountId })).toEqual([]);
    expect(await t.ctx.db('follow_ups').where({ account_id: accountId })).toEqual([]);
  };

  /** Mollie tells us a payment changed: the call, then its processing in the background. */
  const mollieReports = (providerPaymentId: string) => mollieCallsWebhook(t, accountId, providerPaymentId);

  /** The resume of a lost create is refused this way (a key reuse: PUBLIC_URL changed, so the webhook address differs). */
  const refuseResumes = (refusal: Refusal) => {
    if (refusal === 'rate limited') fake.refuse('POST', PAYMENTS, REFUSALS.rateLimited(600), 1);
    if (refusal === 'credentials refused') {
      // The key is revoked for a while: creates and look-ups alike are refused.
      fake.refuse('POST', PAYMENTS, REFUSALS.unauthorized());
      fake.refuse('GET', CUSTOMER_PAYMENTS, REFUSALS.unauthorized());
    }
    if (refusal === 'key reused') (t.ctx.config as { publicUrl: string }).publicUrl = 'https://payments.shop.example';
  };
  /** The refusal's cause goes away (the rate limit's wait, a new key); PUBLIC_URL stays as changed. */
  const causeGoesAway = (refusal: Refusal) => {
    if (refusal === 'credentials refused') fake.heal();
    t.clock.advance(11 * MINUTE);
  };

  it.each(REFUSED)(
    'When a charge’s answer is lost and its resume is %s, then the one payment Mollie made is charged and paid, nobody is asked again',
    async (refusal) => {
      fake.loseAnswers('POST', PAYMENTS, 1);
      expect(await bill()).toContain('1 due, 0 charged');
      const [kept] = await chargePayments();
      expect(kept).toMatchObject({ status: 'creating' });
      expect(fake.paymentsWithReference(kept.id)).toHaveLength(1);

      refuseResumes(refusal);
      t.clock.advance(2 * MINUTE);
      await bill();
      const [afterRefusal] = await chargePayments();
      if (refusal === 'key reused') {
        // Refused for the key, then found by our id in its metadata: recorded at once.
        expect(afterRefusal).toMatchObject({
          id: kept.id,
          status: 'pending',
          provider_payment_id: fake.paymentsWithReference(kept.id)[0]?.id,
        });
      } else {
        expect(afterRefusal).toMatchObject({ id: kept.id, status: 'creating', provider_payment_id: null });
        expect((await charges())[0]).toMatchObject({ status: 'due' });
        if (refusal === 'rate limited') expect(afterRefusal.next_attempt_at >= '2026-12-01 06:12:00').toBe(true); // Retry-After: 600 s
      }
      await nobodyAskedToPayAgain();

      causeGoesAway(refusal);
      await bill();
      const [made] = fake.paymentsWithReference(kept.id);
      expect((await chargePayments())[0]).toMatchObject({ id: kept.id, status: 'pending', provider_payment_id: made?.id });
      expect((await charges())[0]).toMatchObject({ status: 'charged', payment_id: kept.id });

      fake.setPaymentStatus(String(made?.id), 'paid');
      await mollieReports(String(made?.id));
      expect((await charges())[0]).toMatchObject({ status: 'paid' });
      expect(fake.payments.size).toBe(1);
      expect(await chargePayments()).toHaveLength(1);
      await nobodyAskedToPayAgain();
    },
  );

  it.each(REFUSED)(
    'When a failed charge’s retry loses its answer and its resume is %s, then the retry is paid once and the follow-up solved without ' +
      'a link',
    async (refusal) => {
      await bill();
      const [chargePayment] = await chargePayments();
      fake.setPaymentStatus(String(chargePayment.provider_payment_id), 'failed', {
        bankReasonCode: 'AM04',
        bankReason: 'Insufficient funds',
      });
      await mollieReports(String(chargePayment.provider_payment_id));
      const [followUp] = await t.ctx.db('follow_ups').where({ account_id: accountId });
      expect(followUp).toMatchObject({ status: 'pending', stage: 'retry' });

      const retryDay = String(followUp.next_retry_at).slice(0, 10);
      t.clock.set(`${retryDay}T08:00:00Z`);
      fake.loseAnswers('POST', PAYMENTS, 1);
      expect((await cli(t.ctx, 'follow-ups', 'run', '--date', retryDay)).code).toBe(0);
      const retries = () => t.ctx.db('payments').where({ account_id: accountId, purpose: 'follow-up' });
      const [kept] = await retries();
      expect(kept).toMatchObject({ status: 'creating' });

      refuseResumes(refusal);
      t.clock.advance(2 * MINUTE);
      expect((await cli(t.ctx, 'follow-ups', 'run', '--date', retryDay)).code).toBe(0);
      expect((await retries())[0].status).toBe(refusal === 'key reused' ? 'pending' : 'creating');

      causeGoesAway(refusal);
      expect((await cli(t.ctx, 'follow-ups', 'run', '--date', retryDay)).code).toBe(0);
      const [made] = fake.paymentsWithReference(kept.id);
      expect(await retries()).toEqual([expect.objectContaining({ id: kept.id, status: 'pending', provider_payment_id: made?.id })]);

      fake.setPaymentStatus(String(made?.id), 'paid');
      await mollieReports(String(made?.id));
      expect(await t.ctx.db('follow_ups').where({ account_id: accountId })).toEqual([
        expect.objectContaining({ id: followUp.id, status: 'solved', link_id: null }),
      ]);
      expect(await t.ctx.db('payment_links').where({ account_id: accountId })).toEqual([]);
      expect(fake.paymentsWithReference(kept.id)).toHaveLength(1);
      expect(fake.payments.size).toBe(2); // the failed charge and its one paid retry
    },
  );

  it.each(REFUSED)(
    'When a one-off payment’s answer is lost and the client’s retry is %s, then the retry with the same key gets the one payment',
    async (refusal) => {
      const [customer] = await t.ctx.db('customers').where({ account_id: accountId });
      const body = {
        amount: 25,
        currency: 'EUR',
        provider_customer_id: customer.provider_customer_id,
        description: 'Order 1001',
        redirect_url: 'https://shop.example/thanks',
      };
      const pay = () => t.as(token).post('/api/v2/payments', body).set('Idempotency-Key', 'order-1001');
      fake.loseAnswers('POST', PAYMENTS, 1);
      expect((await pay()).status).toBe(502);
      const [kept] = await t.ctx.db('payments').where({ account_id: accountId, purpose: 'api' });

      refuseResumes(refusal);
      const refused = await pay();
      if (refusal === 'key reused') {
        expect(refused.status).toBe(201);
        expect(refused.body).toMatchObject({
          id: kept.id,
          provider_payment_id: fake.paymentsWithReference(kept.id)[0]?.id,
          status: 'open',
        });
      } else {
        // Not a refusal of the payment: the client is told to retry, and the payment is kept.
        expect(refused.status).toBe(502);
        expect(refused.body.error).toContain(`payment ${kept.id} is kept`);
        if (refusal === 'rate limited') expect(refused.headers['retry-after']).toBe('600');
        expect((await t.ctx.db('payments').where({ id: kept.id }).first()).status).toBe('creating');
      }

      causeGoesAway(refusal);
      const retried = await pay();
      expect(retried.status).toBe(201);
      const [made] = fake.paymentsWithReference(kept.id);
      expect(retried.body).toMatchObject({ id: kept.id, provider_payment_id: made?.id, status: 'open' });
      fake.setPaymentStatus(String(made?.id), 'paid');
      await mollieReports(String(made?.id));
      expect((await t.ctx.db('payments').where({ id: kept.id }).first()).status).toBe('paid');
      expect(fake.payments.size).toBe(1);
      expect(await t.ctx.db('payments').where({ account_id: accountId, purpose: 'api' })).toHaveLength(1);
    },
  );

  it(
    'When a resumed charge is refused for good (422) and Mollie holds no payment with our id, then it is rejected and not ' + 'charged',
    async () => {
      fake.unreachable('POST', PAYMENTS, 1);
      await bill();
      fake.refuse('POST', PAYMENTS, {
        status: 422,
        body: { status: 422, title: 'Unprocessable Entity', detail: 'The mandate is invalid', field: 'mandateId' },
      });
      t.clock.advance(2 * MINUTE);
      await bill();
      const [rejected] = await chargePayments();
      expect(rejected).toMatchObject({ status: 'rejected', failure_reason: expect.stringContaining('mandate is invalid') });
      // It was looked up by our id before being called refused.
      expect(fake.requests.some((call) => call.method === 'GET' && CUSTOMER_PAYMENTS.test(call.path))).toBe(true);
      expect((await charges())[0]).toMatchObject({ status: 'not_charged', payment_id: rejected.id });
      expect(fake.payments.size).toBe(0);
    },
  );

  it(
    'When a payment given up as rejected turns out to exist at Mollie, then its webhook attaches it and the customer is no longer ' +
      'asked to pay',
    async () => {
      fake.loseAnswers('POST', PAYMENTS, 1);
      await bill();
      const [kept] = await chargePayments();
      const [made] = fake.paymentsWithReference(kept.id);
      // Mollie's list misses it (an eventually consistent index), and the resume is refused: given up.
      fake.refuse('GET', CUSTOMER_PAYMENTS, { status: 200, body: { count: 0, _embedded: { payments: [] }, _links: { next: null } } });
      fake.refuse(
        'POST',
        PAYMENTS,
        { status: 422, body: { status: 422, title: 'Unprocessable Entity', detail: 'The mandate is invalid', field: 'mandateId' } },
        1,
      );
      t.clock.advance(2 * MINUTE);
      await bill();
      expect((await charges())[0]).toMatchObject({ status: 'not_charged' });
      const [followUp] = await t.ctx.db('follow_ups').where({ account_id: accountId });
      expect(followUp).toMatchObject({ kind: 'mandate', status: 'pending' });
      // The next day the customer is sent a payment link for it.
      t.clock.advance(24 * 60 * MINUTE);
      expect((await cli(t.ctx, 'follow-ups', 'run')).code).toBe(0);
      const { link_id: linkId } = await t.ctx.db('follow_ups').where({ id: followUp.id }).first();
      expect((await request(t.app).get(`/pay/${linkId}`)).status).toBe(200);

      fake.heal();
      fake.setPaymentStatus(String(made?.id), 'paid');
      await mollieReports(String(made?.id));
      expect((await chargePayments())[0]).toMatchObject({ id: kept.id, status: 'paid', provider_payment_id: made?.id });
      expect((await charges())[0]).toMatchObject({ status: 'paid', payment_id: kept.id });
      expect((await t.ctx.db('follow_ups').where({ id: followUp.id }).first()).status).toBe('solved');
      // The money came: the link can no longer be paid, so the customer cannot pay twice.
      expect((await request(t.app).get(`/pay/${linkId}`)).status).toBe(410);
    },
  );

  it(
    'When a payment given up as rejected exists at Mollie and its webhook never reaches us, then reconciliation finds it a day ' + 'later',
    async () => {
      fake.loseAnswers('POST', PAYMENTS, 1);
      await bill();
      const [kept] = await chargePayments();
      const [made] = fake.paymentsWithReference(kept.id);
      fake.refuse('GET', CUSTOMER_PAYMENTS, { status: 200, body: { count: 0, _embedded: { payments: [] }, _links: { next: null } } }, 1);
      fake.refuse(
        'POST',
        PAYMENTS,
        { status: 422, body: { status: 422, title: 'Unprocessable Entity', detail: 'The mandate is invalid', field: 'mandateId' } },
        1,
      );
      t.clock.advance(2 * MINUTE);
      await bill();
      expect((await chargePayments())[0]).toMatchObject({ status: 'rejected' });
      fake.setPaymentStatus(String(made?.id), 'paid'); // its webhook goes nowhere we hear

      t.clock.advance(2 * 60 * MINUTE);
      expect((await cli(t.ctx, 'reconcile')).code).toBe(0);
      expect((await chargePayments())[0]).toMatchObject({ status: 'rejected' }); // not yet: once, a day later
      t.clock.advance(24 * 60 * MINUTE);
      expect((await cli(t.ctx, 'reconcile')).code).toBe(0);
      expect((await chargePayments())[0]).toMatchObject({
        id: kept.id,
        status: 'paid',
        provider_payment_id: made?.id,
        next_attempt_at: null,
      });
      expect((await charges())[0]).toMatchObject({ status: 'paid' });
      expect((await t.ctx.db('follow_ups').where({ account_id: accountId }).first()).status).toBe('solved');
      // Looked for once: a later run does not ask again.
      const lookups = fake.requests.filter((call) => call.method === 'GET' && CUSTOMER_PAYMENTS.test(call.path)).length;
      t.clock.advance(48 * 60 * MINUTE);
      expect((await cli(t.ctx, 'reconcile')).code).toBe(0);
      expect(fake.requests.filter((call) => call.method === 'GET' && CUSTOMER_PAYMENTS.test(call.path))).toHaveLength(lookups);
    },
  );

  it('When a first attempt is refused (nothing was lost before it), then it is rejected at once and never looked for again', async () => {
    fake.refuse(
      'POST',
      PAYMENTS,
      { status: 422, body: { status: 422, title: 'Unprocessable Entity', detail: 'The mandate is invalid', field: 'mandateId' } },
      1,
    );
    await bill();
    expect((await chargePayments())[0]).toMatchObject({ status: 'rejected', next_attempt_at: null });
    expect(fake.requests.filter((call) => call.method === 'GET')).toEqual([]);
  });

  it(
    'When a mandate’s answer is lost and the retry’s look-up is rate limited, then the same key later records the one ' + 'mandate',
    async () => {
      const [customer] = await t.ctx.db('customers').where({ account_id: accountId });
      const create = () =>
        t
          .as(token)
          .post(`/api/v2/customers/${customer.id}/mandates`, { consumer_name: 'A. de Vries', consumer_account: 'NL91ABNA0417164300' })
          .set('Idempotency-Key', 'mandate-anna');
      fake.loseAnswers('POST', /\/mandates$/, 1);
      expect((await create()).status).toBe(502);
      const made = [...fake.mandates.values()].filter((mandate) => mandate.customerId === customer.provider_customer_id);
      expect(made).toHaveLength(1);
      fake.refuse('GET', /\/mandates/, REFUSALS.rateLimited(45), 1);
      const limited = await create();
      expect(limited.status).toBe(502);
      expect(limited.headers['retry-after']).toBe('45');
      const done = await create();
      expect(done.status).toBe(201);
      expect(done.body.id).toBe(made[0]?.id);
      expect([...fake.mandates.values()].filter((mandate) => mandate.customerId === customer.provider_customer_id)).toHaveLength(1);
      expect(await t.ctx.db('mandates').where({ account_id: accountId, id: made[0]?.id })).toHaveLength(1);
    },
  );

  it('When a customer’s answer is lost and the client’s retry is rate limited, then the same key later gets the one customer', async () => {
    const create = () =>
      t
        .as(token)
        .post('/api/v2/customers', { first_name: 'Anna', last_name: 'de Vries', email: 'anna@example.nl' })
        .set('Idempotency-Key', 'anna');
    fake.loseAnswers('POST', /^\/v2\/customers/, 1);
    expect((await create()).status).toBe(502);
    const kept = await t.ctx.db('customers').where({ account_id: accountId, email: 'anna@example.nl' }).first();
    fake.refuse('POST', /^\/v2\/customers/, REFUSALS.rateLimited(120), 1);
    expect((await create()).status).toBe(502);
    expect(await t.ctx.db('customers').where({ id: kept.id }).first()).toMatchObject({ provider_customer_id: null });
    fake.refuse('POST', /^\/v2\/customers/, REFUSALS.keyReused(), 1);
    fake.refuse('GET', /^\/v2\/customers/, REFUSALS.unauthorized(), 1);
    expect((await create()).status).toBe(502); // refused, and the look-up could not be made: still kept
    const done = await create();
    expect(done.status).toBe(201);
    expect(done.body).toMatchObject({ id: kept.id, provider_customer_id: fake.customersWithReference(kept.id)[0]?.id });
    expect(fake.customersWithReference(kept.id)).toHaveLength(1);
  });
});

import request from 'supertest';
import type { ProviderRegistry } from '../../src/providers';
import type { PaymentProvider } from '../../src/providers/types';
import { fromDbDateTime, toDbDateTime } from '../../src/time';
import { processDueWebhookCalls, recordWebhookCall } from '../../src/modules/payments/webhookCalls';
import { TEST_DATABASES } from '../support/databases';
import { useTestApp } from '../support/testApp';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

interface CallRow {
  account_id: string;
  resource_id: string;
  attempts: number;
  received_at: string;
  next_attempt_at: string | null;
  processed_at: string | null;
  gave_up_at: string | null;
  last_error: string | null;
}

describe.each(TEST_DATABASES)('provider webhook calls retried for 26 hours, on %s', (kind) => {
  const t = useTestApp(kind, { perTest: true });
  let token: string;
  let accountId: string;
  let publicRef: string;
  let payment: { id: string; provider_payment_id: string };
  let realProviders: ProviderRegistry;
  const noAbort = new AbortController().signal;

  beforeEach(async () => {
    ({ token, accountId } = await t.newAccount());
    publicRef = (await t.ctx.db('accounts').where({ id: accountId }).first<{ public_ref: string }>('public_ref'))?.public_ref ?? '';
    const customer = await t.as(token).post('/api/v2/customers', { first_name: 'Piet', last_name: 'Bakker', email: 'piet@example.nl' });
    payment = (
      await t.as(token).post('/api/v2/payments', {
        amount: 10,
        currency: 'EUR',
        provider_customer_id: customer.body.provider_customer_id,
        description: 'Order 5',
        redirect_url: 'https://shop.example/thanks',
      })
    ).body;
    // The payer paid at the provider; the provider is about to tell us.
    await t.ctx
      .db('sandbox_payments')
      .where({ id: payment.provider_payment_id })
      .update({ status: 'paid', paid_at: '2026-11-21 10:00:00' });
    realProviders = t.ctx.providers;
  });

  /** An outage at the provider: every payment look-up fails. */
  function providerDown(): void {
    t.ctx.providers = {
      forAccount: async (account) => {
        const provider = await realProviders.forAccount(account);
        const down: PaymentProvider = Object.create(provider) as PaymentProvider;
        down.getPayment = async () => {
          throw new Error('provider down');
        };
        return down;
      },
    };
  }
  const providerBack = () => {
    t.ctx.providers = realProviders;
  };

  async function callWebhook(): Promise<void> {
    const res = await request(t.app)
      .post(`/webhooks/mollie?account=${encodeURIComponent(publicRef)}`)
      .type('form')
      .send({ id: payment.provider_payment_id });
    expect(res.status).toBe(200);
    await t.ctx.background.idle();
  }

  async function theCall(): Promise<CallRow> {
    const rows = await t.ctx
      .db<CallRow>('provider_webhook_calls')
      .where({ account_id: accountId, resource_id: payment.provider_payment_id });
    expect(rows).toHaveLength(1);
    return rows[0] as CallRow;
  }

  const runJob = () => processDueWebhookCalls(t.ctx, noAbort);

  /** Moves the clock to the call's next attempt and lets the job run. */
  async function atNextAttempt() {
    const { next_attempt_at: next } = await theCall();
    if (next === null) throw new Error('the call has no next attempt');
    t.clock.set(fromDbDateTime(next));
    return runJob();
  }

  const paymentStatus = async () => (await t.as(token).get(`/api/v2/payments/${payment.id}`)).body.status;
  const after = (start: Date, milliseconds: number) => toDbDateTime(new Date(start.getTime() + milliseconds));

  it('When a call is recorded, then the job leaves it a minute to the immediate attempt before picking it up', async () => {
    const received = t.clock.now();
    await recordWebhookCall(t.ctx, 'sandbox', accountId, payment.provider_payment_id); // its immediate attempt was lost (a crash)
    expect(await theCall()).toMatchObject({ attempts: 0, next_attempt_at: after(received, MINUTE), processed_at: null, gave_up_at: null });
    t.clock.advance(59 * SECOND);
    expect(await runJob()).toEqual({ processed: 0, failed: 0 });
    t.clock.advance(SECOND);
    expect(await runJob()).toEqual({ processed: 1, failed: 0 });
    expect(await theCall()).toMatchObject({ attempts: 1, next_attempt_at: null, processed_at: toDbDateTime(t.clock.now()) });
    expect(await paymentStatus()).toBe('paid');
  });

  it('When processing keeps failing, then each retry waits longer: 30 s, 1 min, 2 min', async () => {
    providerDown();
    await callWebhook();
    const first = t.clock.now();
    expect(await theCall()).toMatchObject({
      attempts: 1,
      next_attempt_at: after(first, 30 * SECOND),
      last_error: 'provider down',
      processed_at: null,
    });

    t.clock.advance(29 * SECOND);
    expect(await runJob()).toEqual({ processed: 0, failed: 0 }); // not due yet
    t.clock.advance(SECOND);
    expect(await runJob()).toEqual({ processed: 1, failed: 1 });
    expect(await theCall()).toMatchObject({ attempts: 2, next_attempt_at: after(t.clock.now(), MINUTE) });

    t.clock.advance(MINUTE);
    expect(await runJob()).toEqual({ processed: 1, failed: 1 });
    expect(await theCall()).toMatchObject({ attempts: 3, next_attempt_at: after(t.clock.now(), 2 * MINUTE), gave_up_at: null });
  });

  it('When a call has failed ten times, then it is still retried (no attempt limit, only the 26 hour window)', async () => {
    providerDown();
    await callWebhook();
    for (let attempt = 2; attempt <= 10; attempt += 1) expect(await atNextAttempt()).toEqual({ processed: 1, failed: 1 });
    expect(await theCall()).toMatchObject({ attempts: 10, gave_up_at: null });
    providerBack();
    expect(await atNextAttempt()).toEqual({ processed: 1, failed: 0 });
    expect(await theCall()).toMatchObject({ attempts: 11, next_attempt_at: null, gave_up_at: null });
    expect(await paymentStatus()).toBe('paid');
  });

  it('When the provider is down for 20 hours, then the call is still retried and applied once it answers again', async () => {
    providerDown();
    const received = t.clock.now();
    await callWebhook();
    while (fromDbDateTime((await theCall()).next_attempt_at ?? '').getTime() < received.getTime() + 20 * HOUR) {
      expect(await atNextAttempt()).toEqual({ processed: 1, failed: 1 });
    }
    const during = await theCall();
    expect(during.attempts).toBeGreaterThan(10);
    expect(during).toMatchObject({ processed_at: null, gave_up_at: null });
    expect(await paymentStatus()).toBe('open');

    providerBack();
    expect(await atNextAttempt()).toEqual({ processed: 1, failed: 0 });
    expect(t.clock.now().getTime() - received.getTime()).toBeGreaterThan(20 * HOUR);
    expect(await theCall()).toMatchObject({ attempts: during.attempts + 1, next_attempt_at: null, gave_up_at: null, last_error: null });
    expect(await paymentStatus()).toBe('paid');
  });

  it('When 26 hours have passed since the call arrived, then it is given up, logged as an error, and not retried any more', async () => {
    providerDown();
    const received = t.clock.now();
    await callWebhook();
    for (let guard = 0; (await theCall()).next_attempt_at !== null; guard += 1) {
      expect(guard).toBeLessThan(30);
      expect(await atNextAttempt()).toEqual({ processed: 1, failed: 1 });
    }
    const given = await theCall();
    // The last attempt lands exactly at the end of the window.
    expect(given).toMatchObject({
      processed_at: null,
      next_attempt_at: null,
      gave_up_at: after(received, 26 * HOUR),
      last_error: 'provider down',
    });

    const errors = t.logs.lines.filter((line) => line.includes('provider webhook call given up'));
    expect(errors).toHaveLength(1);
    expect(JSON.parse(errors[0] ?? '{}')).toMatchObject({
      level: 'error',
      accountId,
      resourceId: payment.provider_payment_id,
      attempts: given.attempts,
    });
    expect(errors[0]).not.toMatch(/piet|bakker/i);

    providerBack();
    t.clock.advance(HOUR);
    expect(await runJob()).toEqual({ processed: 0, failed: 0 });
    expect((await theCall()).attempts).toBe(given.attempts);
    expect(await paymentStatus()).toBe('open');
  });
});

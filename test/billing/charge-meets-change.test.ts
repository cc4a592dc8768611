import request from 'supertest';
import { runBilling } from '../../src/modules/billing/run';
import { mandatesRepository } from '../../src/modules/mandates/repository';
import { subscribe } from '../support/billing';
import { TEST_DATABASES } from '../support/databases';
import { openPortal } from '../support/portal';
import { useTestApp } from '../support/testApp';

/**
 * A pause, a cancellation or a new payment method committed while that day's charge is being started
 * — after the run read the subscription and its mandate, before the charge's payment is written — is
 * seen by the charge: nothing is charged for a subscription paused or cancelled meanwhile, and a
 * charge is never made on a mandate the subscription moved away from. The run is held at that point
 * (its read of the mandate done, its answer not yet given back) while the change commits through
 * HTTP; then it goes on. Counted where the money moves: the recurring payments the sandbox holds.
 */
describe.each(TEST_DATABASES)('a charge being started while its subscription changes, on %s', (kind) => {
  const t = useTestApp(kind, { perTest: true }); // the clock starts on 2026-11-21
  let token: string;
  let accountId: string;

  beforeEach(async () => {
    ({ token, accountId } = await t.newAccount());
  });
  afterEach(async () => {
    jest.restoreAllMocks();
    await t.ctx.background.idle();
  });

  /**
   * Holds the next charge once it has read its mandate: answers when it got there, and lets it go on.
   * Every later read of a mandate (the change's own, the charge's re-check) passes.
   */
  function holdChargeAfterItsChecks() {
    const read = mandatesRepository.findForCustomer;
    let reached: () => void = () => undefined;
    let release: () => void = () => undefined;
    const arrived = new Promise<void>((resolve) => (reached = resolve));
    const released = new Promise<void>((resolve) => (release = resolve));
    let held = false;
    jest.spyOn(mandatesRepository, 'findForCustomer').mockImplementation(async (...args) => {
      const found = await read(...args);
      if (!held) {
        held = true;
        reached();
        await released;
      }
      return found;
    });
    return { arrived, release };
  }

  /** The morning of 1 December, the first charge's day (a portal opened before it is used then). */
  const onChargeDay = () => t.clock.set('2026-12-01T06:00:00Z');

  /** The run of 1 December, held as above; answers the run under way once it is held. */
  async function heldRun() {
    onChargeDay();
    const hold = holdChargeAfterItsChecks();
    const run = runBilling(t.ctx, '2026-12-01');
    await hold.arrived;
    // Held before anything of the payment was written.
    expect(await t.ctx.db('payments').where({ account_id: accountId, purpose: 'charge' })).toEqual([]);
    return { run, release: hold.release };
  }

  const chargedAtProvider = () =>
    t.ctx.db('sandbox_payments').where({ account_id: accountId, sequence_type: 'recurring' }).orderBy('created_at').pluck('mandate_id');
  const chargeStates = async (subscriptionId: string) =>
    (await t.ctx.db('subscription_charges').where({ subscription_id: subscriptionId }).orderBy('charge_number')).map((row) => [
      String(row.due_date).slice(0, 10),
      row.status,
    ]);

  it('When the customer pauses in the portal while the day’s charge is being started, then nothing is charged', async () => {
    const { customerId, subscriptionId } = await subscribe(t, token);
    onChargeDay();
    const portal = await openPortal(t, token, customerId);
    const { run, release } = await heldRun();

    expect((await portal.post(`/portal/subscriptions/${subscriptionId}/pause`, { until: '2027-01-15' })).status).toBe(303);
    expect(await t.ctx.db('subscriptions').where({ id: subscriptionId }).first()).toMatchObject({ status: 'paused' });
    release();
    const outcome = await run;

    expect(outcome.charged).toBe(0);
    expect(await chargedAtProvider()).toEqual([]);
    expect(await chargeStates(subscriptionId)).toEqual([['2026-12-01', 'skipped']]);
    expect(await t.ctx.db('payments').where({ account_id: accountId, purpose: 'charge' })).toEqual([]);
  });

  it('When the merchant cancels through the API while the day’s charge is being started, then nothing is charged', async () => {
    const { subscriptionId } = await subscribe(t, token);
    const { run, release } = await heldRun();

    const cancelled = await t.as(token).delete(`/api/v2/subscriptions/${subscriptionId}`).send({});
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ status: 'cancelled', cancel_at: '2026-12-01' });
    release();
    const outcome = await run;

    expect(outcome.charged).toBe(0);
    expect(await chargedAtProvider()).toEqual([]);
    expect(await chargeStates(subscriptionId)).toEqual([['2026-12-01', 'cancelled']]);
  });

  it(
    'When a new payment method takes over in the portal while the day’s charge is being started, then the charge is made on the ' +
      'new mandate, never on the old one',
    async () => {
      const { customerId, subscriptionId, mandateId } = await subscribe(t, token);
      onChargeDay();
      const portal = await openPortal(t, token, customerId);
      const { run, release } = await heldRun();

      const started = await portal.post('/portal/payment-method', { subscription: 'all' });
      expect(started.status).toBe(303);
      const pay = await request(t.app).post(started.headers.location).type('form').send({});
      const providerPaymentId = /\/sandbox\/checkout\/([^/?]+)/.exec(pay.headers.location)?.[1] as string;
      expect((await request(t.app).post(`/sandbox/checkout/${providerPaymentId}`).type('form').send({ status: 'paid' })).status).toBe(303);
      const newMandate = (await t.ctx.db('sandbox_payments').where({ id: providerPaymentId }).first()).mandate_id as string;
      expect(newMandate).not.toBe(mandateId);
      expect((await t.ctx.db('subscriptions').where({ id: subscriptionId }).first()).provider_mandate_id).toBe(newMandate);
      release();
      const outcome = await run;

      expect(outcome.charged).toBe(1);
      expect(await chargedAtProvider()).toEqual([newMandate]);
      const [payment] = await t.ctx.db('payments').where({ account_id: accountId, purpose: 'charge' });
      expect(payment.provider_mandate_id).toBe(newMandate);
      expect(await chargeStates(subscriptionId)).toEqual([['2026-12-01', 'charged']]);
      expect(await t.ctx.db('follow_ups').where({ account_id: accountId })).toEqual([]);
    },
  );
});

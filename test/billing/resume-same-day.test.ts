import { billingRunMissed } from '../../src/jobs/bill';
import { chargesRepository, type ChargeRow } from '../../src/modules/subscriptions/chargesRepository';
import { endUnlessFreed } from '../../src/modules/billing/charging';
import { planDueCharges, planSubscription } from '../../src/modules/subscriptions/planning';
import { cli } from '../cli/runInMemory';
import { subscribe } from '../support/billing';
import { TEST_DATABASES } from '../support/databases';
import { useTestApp } from '../support/testApp';

/**
 * A subscription paused when the morning's run comes has its charge of that day skipped; resumed
 * later that day, the charge is made by the next run of the day — once, however many runs follow.
 * The clock reads UTC; Amsterdam is an hour ahead in December.
 */
describe.each(TEST_DATABASES)('resuming on the day of a skipped charge, on %s', (kind) => {
  const t = useTestApp(kind, { perTest: true }); // the clock starts on 2026-11-21
  let token: string;
  let accountId: string;

  beforeEach(async () => {
    ({ token, accountId } = await t.newAccount());
  });

  /** A run as the morning job or an operator makes it: as of today. */
  const billToday = async (...how: string[][]) => {
    const runs = await Promise.all((how.length ? how : [['billing', 'run']]).map((argv) => cli(t.ctx, ...argv)));
    for (const run of runs) expect(run).toMatchObject({ code: 0, err: [] });
    return runs.map((run) => run.out.join('\n')).join('\n');
  };
  const at = (instant: string) => t.clock.set(instant);
  const chargeStates = async (subscriptionId: string) =>
    (await t.ctx.db('subscription_charges').where({ account_id: accountId, subscription_id: subscriptionId }).orderBy('charge_number')).map(
      (row) => [String(row.due_date).slice(0, 10), row.status],
    );
  /** Payments of one period: ours (one per origin key) and those the provider holds for it. */
  const paymentsFor = async (subscriptionId: string, dueDate: string) => {
    const charge = await t.ctx
      .db('subscription_charges')
      .where({ account_id: accountId, subscription_id: subscriptionId, due_date: dueDate })
      .first();
    const ours = await t.ctx.db('payments').where({ account_id: accountId, purpose: 'charge', purpose_id: charge.id });
    const atProvider = await t.ctx
      .db('sandbox_payments')
      .where({ account_id: accountId, sequence_type: 'recurring' })
      .whereIn(
        'reference',
        ours.map((payment) => payment.id),
      );
    const allAtProvider = await t.ctx.db('sandbox_payments').where({ account_id: accountId, sequence_type: 'recurring' });
    return { ours: ours.length, atProvider: atProvider.length, allAtProvider: allAtProvider.length };
  };
  const pause = async (subscriptionId: string, body?: object) =>
    expect((await t.as(token).post(`/api/v2/subscriptions/${subscriptionId}/pause`, body)).status).toBe(200);
  const resume = (subscriptionId: string) => t.as(token).post(`/api/v2/subscriptions/${subscriptionId}/resume`);

  /** A monthly subscription from 1 December, paused since 25 November, whose charge the 06:00 run of 1 December skipped. */
  const skippedThisMorning = async () => {
    const { subscriptionId } = await subscribe(t, token);
    at('2026-11-25T09:00:00Z');
    await pause(subscriptionId);
    at('2026-12-01T05:00:00Z');
    expect(await billToday()).toContain('billing 2026-12-01: 1 due, 0 charged, 1 skipped');
    return subscriptionId;
  };

  it(
    'When a subscription is resumed at 10:00 on the day the 06:00 run skipped its charge, then the next run of the day makes that ' +
      'charge',
    async () => {
      const subscriptionId = await skippedThisMorning();
      expect(await billingRunMissed(t.ctx)).toBe(false);
      at('2026-12-01T09:00:00Z');
      const resumed = await resume(subscriptionId);
      expect(resumed.status).toBe(200);
      expect(resumed.body).toMatchObject({ status: 'active', next_payment_at: '2026-12-01', next_amount: '12.50' });
      const revived = await t.ctx.db('subscription_charges').where({ account_id: accountId, subscription_id: subscriptionId }).first();
      expect(revived).toMatchObject({ status: 'due', claim_token: null, claimed_until: null });

      // The morning's run happened: only the charge made due again asks for another run, within the hour.
      expect(await billingRunMissed(t.ctx)).toBe(true);
      at('2026-12-01T11:00:00Z');
      expect(await billToday(['jobs', 'run', 'bill'])).toMatch(/^bill: 1 processed, 0 failed/);
      expect(await billingRunMissed(t.ctx)).toBe(false);
      expect(await chargeStates(subscriptionId)).toEqual([['2026-12-01', 'charged']]);
      expect(await paymentsFor(subscriptionId, '2026-12-01')).toEqual({ ours: 1, atProvider: 1, allAtProvider: 1 });
      expect((await t.as(token).get(`/api/v2/subscriptions/${subscriptionId}`)).body).toMatchObject({
        status: 'active',
        next_payment_at: '2027-01-01',
      });
    },
  );

  it(
    'When two runs go at once after the resume, and it is paused and resumed again that day, then the charge still has one ' + 'payment',
    async () => {
      const subscriptionId = await skippedThisMorning();
      at('2026-12-01T09:00:00Z');
      expect((await resume(subscriptionId)).status).toBe(200);

      expect(await billToday(['billing', 'run'], ['jobs', 'run', 'bill'])).toMatch(/1 charged|bill: 1 processed/);
      expect(await paymentsFor(subscriptionId, '2026-12-01')).toEqual({ ours: 1, atProvider: 1, allAtProvider: 1 });

      // The charge was made: a second pause and resume the same day find nothing skipped to free.
      at('2026-12-01T12:00:00Z');
      await pause(subscriptionId);
      expect((await resume(subscriptionId)).body).toMatchObject({ status: 'active', next_payment_at: '2027-01-01' });
      expect(await billToday()).toContain('0 due, 0 charged');
      expect(await chargeStates(subscriptionId)).toEqual([['2026-12-01', 'charged']]);
      expect(await paymentsFor(subscriptionId, '2026-12-01')).toEqual({ ours: 1, atProvider: 1, allAtProvider: 1 });
    },
  );

  it(
    'When the pause came between planning and charging, so the charge was skipped when made, then a resume that day makes it due ' +
      'again too',
    async () => {
      const { subscriptionId } = await subscribe(t, token);
      at('2026-12-01T05:00:00Z');
      expect(await planDueCharges(t.ctx, '2026-12-01')).toMatchObject({ due: 1, skipped: 0 });
      await pause(subscriptionId);
      expect(await billToday()).toContain('1 due, 0 charged, 1 skipped');
      expect(await chargeStates(subscriptionId)).toEqual([['2026-12-01', 'skipped']]);

      at('2026-12-01T09:00:00Z');
      expect((await resume(subscriptionId)).body).toMatchObject({ next_payment_at: '2026-12-01' });
      expect(await billToday()).toContain('1 due, 1 charged, 0 skipped');
      expect(await paymentsFor(subscriptionId, '2026-12-01')).toEqual({ ours: 1, atProvider: 1, allAtProvider: 1 });
    },
  );

  it(
    'When a resume commits while a run is planning the paused subscription, then the stale plan writes nothing and the next run ' +
      'makes the charge',
    async () => {
      const { subscriptionId } = await subscribe(t, token);
      at('2026-11-25T09:00:00Z');
      await pause(subscriptionId);
      at('2026-12-01T05:00:00Z');
      // The run read the subscription (paused) before the resume came in, and plans from that reading.
      const readByTheRun = await t.ctx.db('subscriptions').where({ id: subscriptionId }).first();
      const rules = await t.ctx.db('subscription_rules').where({ subscription_id: subscriptionId });
      expect((await resume(subscriptionId)).status).toBe(200);
      expect(await planSubscription(t.ctx, readByTheRun, rules, '2026-12-01')).toEqual({ due: 0, skipped: 0 });
      expect(await chargeStates(subscriptionId)).toEqual([]);
      expect(await billToday()).toContain('1 due, 1 charged, 0 skipped');
    },
  );

  it('When a resume commits while a run is about to skip the charge, then the charge is made instead', async () => {
    const { subscriptionId } = await subscribe(t, token);
    at('2026-11-25T09:00:00Z');
    await pause(subscriptionId);
    at('2026-12-01T05:00:00Z');
    // Planned before the pause's end was known (as a skip at charge time would meet it), then claimed.
    await t.ctx.db('subscription_pauses').where({ subscription_id: subscriptionId }).update({ from_date: '2026-12-02' });
    expect(await planDueCharges(t.ctx, '2026-12-01')).toMatchObject({ due: 1 });
    await t.ctx.db('subscription_pauses').where({ subscription_id: subscriptionId }).update({ from_date: '2026-11-25' });
    const [claimed] = await chargesRepository.claim(t.ctx.db, {
      date: '2026-12-01',
      now: '2026-12-01 05:00:00',
      until: '2026-12-01 05:05:00',
      token: 'clm_test',
      limit: 1,
    });
    // The run decided "skip" from the pause; the resume comes in before it records that.
    expect((await resume(subscriptionId)).status).toBe(200);
    expect(await endUnlessFreed(t.ctx, claimed as ChargeRow, '2026-12-01 05:00:01')).toBe(false);
    expect(await chargeStates(subscriptionId)).toEqual([['2026-12-01', 'due']]);
  });

  it('When a charge was skipped on a day before the resume, then it stays skipped: a pause is not made up later', async () => {
    const subscriptionId = await skippedThisMorning();
    at('2026-12-02T09:00:00Z');
    expect((await resume(subscriptionId)).body).toMatchObject({ status: 'active', next_payment_at: '2027-01-01' });
    expect(await billToday()).toContain('0 due, 0 charged');
    expect(await chargeStates(subscriptionId)).toEqual([['2026-12-01', 'skipped']]);
    expect((await paymentsFor(subscriptionId, '2026-12-01')).allAtProvider).toBe(0);
  });

  it('When a skipped charge lies outside the pause being ended, then the resume leaves it skipped', async () => {
    const { subscriptionId } = await subscribe(t, token);
    at('2026-11-25T09:00:00Z');
    await pause(subscriptionId, { resume_at: '2026-12-15' });
    at('2026-12-01T05:00:00Z');
    // Planned a month ahead; the January charge is then marked skipped for a reason of its own, not this pause.
    expect(await planDueCharges(t.ctx, '2027-01-01')).toMatchObject({ due: 1, skipped: 1 });
    await t.ctx
      .db('subscription_charges')
      .where({ account_id: accountId, subscription_id: subscriptionId, due_date: '2027-01-01' })
      .update({ status: 'skipped' });

    at('2026-12-01T09:00:00Z');
    expect((await resume(subscriptionId)).status).toBe(200);
    expect(await chargeStates(subscriptionId)).toEqual([
      ['2026-12-01', 'due'],
      ['2027-01-01', 'skipped'],
    ]);
  });

  it(
    'When a pause ends by itself on the day of a charge (its resume_at), then that day’s run resumes it and makes the ' + 'charge',
    async () => {
      const { subscriptionId } = await subscribe(t, token);
      at('2026-11-25T09:00:00Z');
      await pause(subscriptionId, { resume_at: '2026-12-01' });
      at('2026-12-01T05:00:00Z');
      expect(await billToday()).toContain('1 due, 1 charged, 0 skipped, 0 not charged (mandate), 0 failed; 0 cancelled, 1 resumed');
      expect(await chargeStates(subscriptionId)).toEqual([['2026-12-01', 'charged']]);
    },
  );
});

import { chargesRepository } from '../../src/modules/subscriptions/chargesRepository';
import { planDueCharges, planSubscription } from '../../src/modules/subscriptions/planning';
import { pausesRepository } from '../../src/modules/subscriptions/pausesRepository';
import { subscriptionsRepository } from '../../src/modules/subscriptions/repository';
import { cli } from '../cli/runInMemory';
import { billAsOf, subscribe } from '../support/billing';
import { TEST_DATABASES } from '../support/databases';
import { useTestApp } from '../support/testApp';

describe.each(TEST_DATABASES)('skipping the next charge of a subscription on %s', (kind) => {
  const t = useTestApp(kind, { perTest: true }); // the clock starts on 2026-11-21
  let token: string;
  let accountId: string;

  beforeEach(async () => {
    ({ token, accountId } = await t.newAccount());
  });

  const bill = (date: string) => billAsOf(t.ctx, date);
  const skip = (subscriptionId: string, as = token) => t.as(as).post(`/api/v2/subscriptions/${subscriptionId}/skip`);
  const chargeStates = async (subscriptionId: string) =>
    (await t.ctx.db('subscription_charges').where({ account_id: accountId, subscription_id: subscriptionId }).orderBy('charge_number')).map(
      (row) => [String(row.due_date).slice(0, 10), row.status],
    );
  /** The recurring payments the provider (the in-process sandbox) holds for the account: what was really charged. */
  const chargedAtProvider = async () =>
    (await t.ctx.db('sandbox_payments').where({ account_id: accountId, sequence_type: 'recurring' }).orderBy('created_at')).length;

  it('When the next charge is skipped, then it is never charged, even on later runs, and it counts against times', async () => {
    const { subscriptionId } = await subscribe(t, token, { rules: [{ amount: 12.5, interval: 'month', interval_amount: 1, times: 3 }] });
    const res = await skip(subscriptionId);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: subscriptionId, status: 'active', next_payment_at: '2027-01-01' });
    await bill('2026-12-01');
    expect(await chargedAtProvider()).toBe(0);
    await bill('2026-12-02');
    await bill('2027-06-01');
    expect(await chargeStates(subscriptionId)).toEqual([
      ['2026-12-01', 'skipped'],
      ['2027-01-01', 'charged'],
      ['2027-02-01', 'charged'],
    ]);
    // Three times: the skipped December took one of them, so two payments were made in all.
    expect(await chargedAtProvider()).toBe(2);
    expect((await t.as(token).get(`/api/v2/subscriptions/${subscriptionId}`)).body).toMatchObject({ status: 'completed' });
  });

  it('When skipped twice, then the two next periods are skipped; a pause and resume afterwards does not bring them back', async () => {
    const { subscriptionId } = await subscribe(t, token);
    expect((await skip(subscriptionId)).body.next_payment_at).toBe('2027-01-01');
    expect((await skip(subscriptionId)).body.next_payment_at).toBe('2027-02-01');
    expect((await t.as(token).post(`/api/v2/subscriptions/${subscriptionId}/pause`)).status).toBe(200);
    const resumed = await t.as(token).post(`/api/v2/subscriptions/${subscriptionId}/resume`);
    expect(resumed.body).toMatchObject({ status: 'active', next_payment_at: '2027-02-01' });
    await bill('2027-02-01');
    expect(await chargeStates(subscriptionId)).toEqual([
      ['2026-12-01', 'skipped'],
      ['2027-01-01', 'skipped'],
      ['2027-02-01', 'charged'],
    ]);
    expect(await chargedAtProvider()).toBe(1);
  });

  it('When the account has an events endpoint, then subscription.skipped is queued with the skipped date', async () => {
    const { name } = await t.ctx.db('accounts').where({ id: accountId }).first('name');
    expect((await cli(t.ctx, 'accounts', 'set-webhook', '--account', name, '--url', 'https://merchant.example/events')).code).toBe(0);
    const { subscriptionId } = await subscribe(t, token);
    await skip(subscriptionId);
    const rows = await t.ctx.db('outbound_events').where({ account_id: accountId, event: 'subscription.skipped' });
    expect(rows).toHaveLength(1);
    expect(JSON.parse(rows[0].payload)).toEqual({
      id: subscriptionId,
      event: 'subscription.skipped',
      status: 'active',
      skipped_date: '2026-12-01',
    });
  });

  it('When a charge is planned but not started, then skip takes it and billing never makes it', async () => {
    const { subscriptionId } = await subscribe(t, token);
    t.clock.set('2026-12-01T05:00:00Z');
    await planDueCharges(t.ctx, '2026-12-01');
    expect(await chargeStates(subscriptionId)).toEqual([['2026-12-01', 'due']]);
    const res = await skip(subscriptionId);
    expect(res.status).toBe(200);
    expect(res.body.next_payment_at).toBe('2027-01-01');
    await bill('2026-12-01');
    expect(await chargeStates(subscriptionId)).toEqual([['2026-12-01', 'skipped']]);
    expect(await chargedAtProvider()).toBe(0);
  });

  it('When the charge is already claimed by a run, then skip is refused with 409 and the charge is made once', async () => {
    const { subscriptionId } = await subscribe(t, token);
    t.clock.set('2026-12-01T05:00:00Z');
    await planDueCharges(t.ctx, '2026-12-01');
    const claimed = await chargesRepository.claim(t.ctx.db, {
      date: '2026-12-01',
      now: '2026-12-01 05:00:00',
      until: '2026-12-01 05:00:01',
      token: 'a-run-that-died',
      limit: 10,
    });
    expect(claimed).toHaveLength(1);
    const res = await skip(subscriptionId);
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ status: 409, code: 'charge_in_progress' });
    expect(await t.ctx.db('subscription_pauses').where({ account_id: accountId, subscription_id: subscriptionId })).toHaveLength(0);
    // The claim runs out; the next run takes the charge over and makes it, once.
    t.clock.set('2026-12-01T09:00:00Z');
    await bill('2026-12-01');
    expect(await chargeStates(subscriptionId)).toEqual([['2026-12-01', 'charged']]);
    expect(await chargedAtProvider()).toBe(1);
    expect((await t.as(token).get(`/api/v2/subscriptions/${subscriptionId}`)).body.next_payment_at).toBe('2027-01-01');
  });

  it('When a planner read the pauses just before a skip was committed, then it plans again and the charge is skipped', async () => {
    const { subscriptionId } = await subscribe(t, token);
    const row = await subscriptionsRepository.find(t.ctx.db, accountId, subscriptionId);
    const rules = await subscriptionsRepository.rulesOf(t.ctx.db, accountId, [subscriptionId]);
    expect((await skip(subscriptionId)).status).toBe(200);
    // The planner's first read of the pauses is from before the skip (as if it read, then the skip committed).
    const periodsOf = jest.spyOn(pausesRepository, 'periodsOf').mockResolvedValueOnce([]);
    try {
      await planSubscription(t.ctx, row!, rules, '2026-12-01');
    } finally {
      periodsOf.mockRestore();
    }
    expect(await chargeStates(subscriptionId)).toEqual([['2026-12-01', 'skipped']]);
    await bill('2026-12-01');
    expect(await chargedAtProvider()).toBe(0);
  });

  it('When the subscription is cancelled or paused, then skip answers 422 naming the status', async () => {
    const { subscriptionId } = await subscribe(t, token);
    await t.as(token).post(`/api/v2/subscriptions/${subscriptionId}/pause`);
    const paused = await skip(subscriptionId);
    expect(paused.status).toBe(422);
    expect(paused.body.fields.status[0]).toContain('paused');
    await t.as(token).delete(`/api/v2/subscriptions/${subscriptionId}`);
    const cancelled = await skip(subscriptionId);
    expect(cancelled.status).toBe(422);
    expect(cancelled.body.fields.status[0]).toContain('cancelled');
  });

  it('When another account names the subscription, then skip answers 404 and skips nothing', async () => {
    const { subscriptionId } = await subscribe(t, token);
    const other = await t.newAccount();
    const res = await skip(subscriptionId, other.token);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ status: 404, error: 'Subscription not found', code: 'not_found' });
    expect((await t.as(token).get(`/api/v2/subscriptions/${subscriptionId}`)).body.next_payment_at).toBe('2026-12-01');
  });
});

import { cli } from '../cli/runInMemory';
import { billAsOf, subscribe } from '../support/billing';
import { TEST_DATABASES } from '../support/databases';
import { useTestApp } from '../support/testApp';

describe.each(TEST_DATABASES)('changing a subscription (PATCH) on %s', (kind) => {
  const t = useTestApp(kind, { perTest: true }); // the clock starts on 2026-11-21
  let token: string;
  let accountId: string;

  beforeEach(async () => {
    ({ token, accountId } = await t.newAccount());
  });

  const bill = (date: string) => billAsOf(t.ctx, date);
  const patch = (subscriptionId: string, body: object, as = token) => t.as(as).patch(`/api/v2/subscriptions/${subscriptionId}`, body);
  /** What the provider (the in-process sandbox) was asked to charge, in order: amount in cents and mandate. */
  const atProvider = async () => {
    const ours = await t.ctx.db('payments').where({ account_id: accountId, purpose: 'charge' }).orderBy('seq');
    const theirs = await t.ctx.db('sandbox_payments').where({ account_id: accountId, sequence_type: 'recurring' });
    expect(theirs).toHaveLength(ours.length);
    return ours.map((payment) => {
      const made = theirs.find((row) => row.reference === payment.id);
      return { amount: Number(made?.amount), mandate: made?.mandate_id };
    });
  };
  const newMandate = async (customerId: string) => {
    const res = await t
      .as(token)
      .post(`/api/v2/customers/${customerId}/mandates`, { consumer_name: 'A. de Vries', consumer_account: 'NL20INGB0001234567' });
    expect(res.status).toBe(201);
    return res.body.id as string;
  };

  it('When the rules change after a charge, then it stays, the next ones use the new amount, and charged times count', async () => {
    const { subscriptionId } = await subscribe(t, token);
    await bill('2026-12-01');
    t.clock.set('2026-12-10T09:00:00Z');
    const res = await patch(subscriptionId, { rules: [{ amount: 20, interval: 'month', interval_amount: 1, times: 3 }] });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'active', next_payment_at: '2027-01-01' });
    await bill('2027-06-01');
    // Three times in all: December (12.50, under the old rule) and two at the new amount.
    expect((await atProvider()).map((payment) => payment.amount)).toEqual([1250, 2000, 2000]);
    const charges = await t.ctx
      .db('subscription_charges')
      .where({ account_id: accountId, subscription_id: subscriptionId })
      .orderBy('charge_number');
    expect(charges.map((row) => [String(row.due_date).slice(0, 10), Number(row.amount), row.status])).toEqual([
      ['2026-12-01', 1250, 'charged'],
      ['2027-01-01', 2000, 'charged'],
      ['2027-02-01', 2000, 'charged'],
    ]);
    expect((await t.as(token).get(`/api/v2/subscriptions/${subscriptionId}`)).body.status).toBe('completed');
  });

  it('When the rules change before any charge, then the whole plan is the new one from the start date', async () => {
    const { subscriptionId } = await subscribe(t, token);
    const res = await patch(subscriptionId, { rules: [{ amount: 5, interval: 'week', interval_amount: 2, day: 3 }] });
    expect(res.status).toBe(200);
    // 1 December 2026 is a Tuesday: the first Wednesday on or after it.
    expect(res.body).toMatchObject({ next_payment_at: '2026-12-02', next_amount: '5.00' });
    await bill('2026-12-17');
    expect((await atProvider()).map((payment) => payment.amount)).toEqual([500, 500]);
  });

  it('When the mandate changes, then the next charge is made on the new mandate', async () => {
    const { subscriptionId, customerId, mandateId } = await subscribe(t, token);
    await bill('2026-12-01');
    const second = await newMandate(customerId);
    const res = await patch(subscriptionId, { provider_mandate_id: second });
    expect(res.status).toBe(200);
    expect(res.body.provider_mandate_id).toBe(second);
    await bill('2027-01-01');
    const made = await atProvider();
    expect(made).toHaveLength(2);
    expect(made[0]?.mandate).toBe(mandateId);
    expect(made[1]?.mandate).toBe(second);
  });

  it('When a draft waiting for its mandate is moved to a valid one, then it becomes active and is charged on it', async () => {
    const { subscriptionId, customerId, mandateId } = await subscribe(t, token);
    await t.ctx.db('mandates').where({ id: mandateId }).update({ status: 'pending' });
    await t.ctx.db('subscriptions').where({ id: subscriptionId }).update({ status: 'draft' });
    const second = await newMandate(customerId);
    const res = await patch(subscriptionId, { provider_mandate_id: second });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'active', provider_mandate_id: second, next_payment_at: '2026-12-01' });
    await bill('2026-12-01');
    expect(await atProvider()).toEqual([{ amount: 1250, mandate: second }]);
  });

  it('When the name changes, then subscription.updated names the changed fields only', async () => {
    const { name } = await t.ctx.db('accounts').where({ id: accountId }).first('name');
    expect((await cli(t.ctx, 'accounts', 'set-webhook', '--account', name, '--url', 'https://merchant.example/events')).code).toBe(0);
    const { subscriptionId, mandateId } = await subscribe(t, token);
    expect((await patch(subscriptionId, { name: 'Tea box', provider_mandate_id: mandateId })).status).toBe(200);
    expect((await t.as(token).get(`/api/v2/subscriptions/${subscriptionId}`)).body).toMatchObject({ name: 'Tea box' });
    const rows = await t.ctx.db('outbound_events').where({ account_id: accountId, event: 'subscription.updated' });
    expect(rows.map((row) => JSON.parse(row.payload))).toEqual([{ id: subscriptionId, event: 'subscription.updated', changes: ['name'] }]);
  });

  it('When a field is not acceptable, then 422 names it and nothing changes', async () => {
    const { subscriptionId, mandateId, customerId } = await subscribe(t, token);
    const other = await subscribe(t, token, { email: 'bob@example.nl' });
    await t.ctx.db('mandates').where({ id: other.mandateId }).update({ revoked_at: '2026-11-21 10:00:00' });
    const ownSecond = await newMandate(customerId);
    await t.ctx.db('mandates').where({ id: ownSecond }).update({ revoked_at: '2026-11-21 10:00:00' });
    for (const [body, field] of [
      [{ provider_mandate_id: other.mandateId }, 'provider_mandate_id'], // another customer's
      [{ provider_mandate_id: ownSecond }, 'provider_mandate_id'], // revoked
      [{ provider_mandate_id: 'mdt_doesnotexist' }, 'provider_mandate_id'],
      [{ rules: [{ amount: 5, interval: 'month', interval_amount: 1, day: 40 }] }, 'rules.0.day'],
      [{ rules: [] }, 'rules'],
      [{ name: '' }, 'name'],
      [{}, 'name'],
      [{ start_date: '2027-01-01' }, ''],
    ] as const) {
      const res = await patch(subscriptionId, body);
      expect(res.status).toBe(422);
      if (field) expect(Object.keys(res.body.fields ?? {})).toContain(field);
    }
    expect((await t.as(token).get(`/api/v2/subscriptions/${subscriptionId}`)).body).toMatchObject({ name: 'Coffee box' });
    expect((await t.ctx.db('subscriptions').where({ id: subscriptionId }).first()).provider_mandate_id).toBe(mandateId);
  });

  it('When the subscription is cancelled, then PATCH answers 422; another account gets 404 and its mandate is refused', async () => {
    const { subscriptionId } = await subscribe(t, token);
    const otherAccount = await t.newAccount();
    const foreign = await subscribe(t, otherAccount.token);
    expect((await patch(subscriptionId, { name: 'x' }, otherAccount.token)).status).toBe(404);
    const withForeignMandate = await patch(subscriptionId, { provider_mandate_id: foreign.mandateId });
    expect(withForeignMandate.status).toBe(422);
    expect(withForeignMandate.body.fields).toHaveProperty('provider_mandate_id');
    await t.as(token).delete(`/api/v2/subscriptions/${subscriptionId}`);
    const cancelled = await patch(subscriptionId, { name: 'Tea box' });
    expect(cancelled.status).toBe(422);
    expect(cancelled.body.fields.status[0]).toContain('cancelled');
  });
});

import { billAsOf, subscribe } from '../support/billing';
import { TEST_DATABASES } from '../support/databases';
import { useTestApp } from '../support/testApp';

describe.each(TEST_DATABASES)('cancelling, pausing and resuming subscriptions on %s', (kind) => {
  const t = useTestApp(kind, { perTest: true }); // the clock starts on 2026-11-21
  let token: string;
  let accountId: string;

  beforeEach(async () => {
    ({ token, accountId } = await t.newAccount());
  });

  const bill = (date: string) => billAsOf(t.ctx, date);
  const chargeRows = (subscriptionId: string) =>
    t.ctx.db('subscription_charges').where({ account_id: accountId, subscription_id: subscriptionId }).orderBy('charge_number');
  const madeDates = async (subscriptionId: string) =>
    (await chargeRows(subscriptionId)).filter((row) => row.status === 'charged').map((row) => String(row.due_date).slice(0, 10));
  const day = (date: string) => t.clock.set(`${date}T09:00:00Z`);

  it('When cancelled without a date, then it is cancelled today and never charged', async () => {
    const { subscriptionId } = await subscribe(t, token);
    const res = await t.as(token).delete(`/api/v2/subscriptions/${subscriptionId}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: subscriptionId, status: 'cancelled', next_payment_at: null });
    await bill('2027-02-01');
    expect(await chargeRows(subscriptionId)).toHaveLength(0);
  });

  it(
    'When cancelled with a future cancel_at, then charges before it are made, none on or after it, and it is cancelled on that ' + 'date',
    async () => {
      const { subscriptionId } = await subscribe(t, token);
      const res = await t.as(token).delete(`/api/v2/subscriptions/${subscriptionId}`).send({ cancel_at: '2027-02-01' });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ status: 'active', next_payment_at: '2026-12-01' });
      await bill('2027-01-31');
      expect((await t.as(token).get(`/api/v2/subscriptions/${subscriptionId}`)).body.status).toBe('active');
      expect(await bill('2027-03-05')).toContain('1 cancelled');
      expect(await madeDates(subscriptionId)).toEqual(['2026-12-01', '2027-01-01']);
      expect((await t.as(token).get(`/api/v2/subscriptions/${subscriptionId}`)).body).toMatchObject({
        status: 'cancelled',
        next_payment_at: null,
      });
    },
  );

  it('When cancel_at is in the past, then it means today', async () => {
    const { subscriptionId } = await subscribe(t, token);
    const res = await t.as(token).delete(`/api/v2/subscriptions/${subscriptionId}`).send({ cancel_at: '2026-01-01' });
    expect(res.body.status).toBe('cancelled');
  });

  it(
    'When paused until a date, then the charges of the paused period are skipped, not made up, and billing goes on from that ' + 'date',
    async () => {
      const { subscriptionId } = await subscribe(t, token);
      await bill('2026-12-01');
      day('2026-12-10');
      const paused = await t.as(token).post(`/api/v2/subscriptions/${subscriptionId}/pause`, { resume_at: '2027-02-15' });
      expect(paused.status).toBe(200);
      expect(paused.body).toMatchObject({ status: 'paused', next_payment_at: '2027-03-01' });
      expect(await bill('2027-02-14')).toContain('2 due, 0 charged, 2 skipped');
      expect(await bill('2027-03-01')).toContain('1 resumed');
      const rows = await chargeRows(subscriptionId);
      expect(rows.map((row) => [String(row.due_date).slice(0, 10), row.status])).toEqual([
        ['2026-12-01', 'charged'],
        ['2027-01-01', 'skipped'],
        ['2027-02-01', 'skipped'],
        ['2027-03-01', 'charged'],
      ]);
      expect((await t.as(token).get(`/api/v2/subscriptions/${subscriptionId}`)).body).toMatchObject({
        status: 'active',
        next_payment_at: '2027-04-01',
      });
    },
  );

  it('When paused without end and resumed by hand, then only the charges while paused are skipped', async () => {
    const { subscriptionId } = await subscribe(t, token);
    day('2026-11-25');
    const paused = await t.as(token).post(`/api/v2/subscriptions/${subscriptionId}/pause`);
    expect(paused.body).toMatchObject({ status: 'paused', next_payment_at: null, next_amount: null });
    await bill('2027-01-10');
    day('2027-01-10');
    const resumed = await t.as(token).post(`/api/v2/subscriptions/${subscriptionId}/resume`);
    expect(resumed.status).toBe(200);
    expect(resumed.body).toMatchObject({ status: 'active', next_payment_at: '2027-02-01' });
    await bill('2027-02-01');
    expect(await madeDates(subscriptionId)).toEqual(['2027-02-01']);
  });

  it('When the subscription is not in a state for it, then pause and resume answer 422 naming why', async () => {
    const { subscriptionId } = await subscribe(t, token);
    const resume = await t.as(token).post(`/api/v2/subscriptions/${subscriptionId}/resume`);
    expect(resume.status).toBe(422);
    expect(resume.body.fields.status[0]).toContain('active');
    const badDate = await t.as(token).post(`/api/v2/subscriptions/${subscriptionId}/pause`, { resume_at: '2026-11-21' });
    expect(badDate.status).toBe(422);
    expect(badDate.body.fields).toHaveProperty('resume_at');
    const notADate = await t.as(token).delete(`/api/v2/subscriptions/${subscriptionId}`).send({ cancel_at: '2027-02-30' });
    expect(notADate.status).toBe(422);
    expect(notADate.body.fields).toHaveProperty('cancel_at');
  });

  it('When another account names the subscription, then every state change answers 404 and changes nothing', async () => {
    const { subscriptionId } = await subscribe(t, token);
    const other = await t.newAccount();
    for (const res of [
      await t.as(other.token).delete(`/api/v2/subscriptions/${subscriptionId}`),
      await t.as(other.token).post(`/api/v2/subscriptions/${subscriptionId}/pause`),
      await t.as(other.token).post(`/api/v2/subscriptions/${subscriptionId}/resume`),
      await t.as(other.token).get(`/api/v2/subscriptions/${subscriptionId}/invoices`),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ status: 404, error: 'Subscription not found', code: 'not_found' });
    }
    expect((await t.as(token).get(`/api/v2/subscriptions/${subscriptionId}`)).body.status).toBe('active');
  });
});

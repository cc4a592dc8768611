import { cli } from '../cli/runInMemory';
import { subscribe } from '../support/billing';
import { TEST_DATABASES } from '../support/databases';
import { useTestApp } from '../support/testApp';

describe.each(TEST_DATABASES)('billing run on %s', (kind) => {
  const t = useTestApp(kind, { perTest: true });
  let token: string;
  let accountId: string;

  beforeEach(async () => {
    ({ token, accountId } = await t.newAccount());
  });

  const charges = (subscriptionId: string) =>
    t.ctx.db('subscription_charges').where({ account_id: accountId, subscription_id: subscriptionId }).orderBy('charge_number');
  const chargePayments = (subscriptionId: string) =>
    t.ctx.db('payments').where({ account_id: accountId, subscription_id: subscriptionId, purpose: 'charge' }).orderBy('created_at');
  const sandboxCharges = () => t.ctx.db('sandbox_payments').where({ account_id: accountId, sequence_type: 'recurring' });
  // --force: these runs bill as of days ahead of the test clock.
  const bill = async (date: string) => {
    const run = await cli(t.ctx, 'billing', 'run', '--date', date, '--force');
    expect(run).toMatchObject({ code: 0, err: [] });
    return run.out.join('\n');
  };

  it('When a charge is due, then one recurring payment is made on the mandate and the subscription moves to its next period', async () => {
    const { subscriptionId, mandateId } = await subscribe(t, token);
    const out = await bill('2026-12-01');
    expect(out).toBe('billing 2026-12-01: 1 due, 1 charged, 0 skipped, 0 not charged (mandate), 0 failed; 0 cancelled, 0 resumed');

    const [payment] = await chargePayments(subscriptionId);
    expect(payment).toMatchObject({
      sequence_type: 'recurring',
      provider_mandate_id: mandateId,
      amount: 1250,
      origin_key: expect.stringMatching(/^charge-chg_/),
    });
    expect(await charges(subscriptionId)).toEqual([
      expect.objectContaining({ charge_number: 1, status: 'charged', amount: 1250, payment_id: payment.id }),
    ]);
    const sub = await t.as(token).get(`/api/v2/subscriptions/${subscriptionId}`);
    expect(sub.body).toMatchObject({ status: 'active', next_payment_at: '2027-01-01', next_amount: '12.50' });
    expect(sub.body.last_payment_created_at).not.toBeNull();
    const [rule] = await t.ctx.db('subscription_rules').where({ subscription_id: subscriptionId });
    expect(Number(rule.times_done)).toBe(1);
  });

  it('When the run is repeated for the same date, then nothing is charged again', async () => {
    const { subscriptionId } = await subscribe(t, token);
    await bill('2026-12-01');
    expect(await bill('2026-12-01')).toContain(': 0 due, 0 charged');
    expect(await chargePayments(subscriptionId)).toHaveLength(1);
    expect(await sandboxCharges()).toHaveLength(1);
  });

  it('When nothing is due yet, then nothing is charged', async () => {
    const { subscriptionId } = await subscribe(t, token, { startDate: '2026-12-15' });
    expect(await bill('2026-12-14')).toContain(': 0 due, 0 charged');
    expect(await charges(subscriptionId)).toHaveLength(0);
  });

  it('When runs were missed, then the next run makes every missed charge, each once, on its own due date', async () => {
    const { subscriptionId } = await subscribe(t, token, { rules: [{ amount: 10, interval: 'month', interval_amount: 1, day: 31 }] });
    expect(await bill('2027-03-05')).toContain(': 3 due, 3 charged');
    expect((await charges(subscriptionId)).map((row) => [row.charge_number, String(row.due_date).slice(0, 10)])).toEqual([
      [1, '2026-12-31'],
      [2, '2027-01-31'],
      [3, '2027-02-28'],
    ]);
    expect(await bill('2027-03-31')).toContain(': 1 due, 1 charged');
    expect(await sandboxCharges()).toHaveLength(4);
  });

  it('When every rule has run its times, then the subscription is completed and never charged again', async () => {
    const { subscriptionId } = await subscribe(t, token, {
      rules: [
        { amount: 5, interval: 'week', interval_amount: 1, times: 2 },
        { amount: 7.5, interval: 'month', interval_amount: 1, times: 1 },
      ],
    });
    await bill('2027-06-01');
    const rows = await charges(subscriptionId);
    expect(rows.map((row) => [String(row.due_date).slice(0, 10), Number(row.amount)])).toEqual([
      ['2026-12-01', 500],
      ['2026-12-08', 500],
      // The second rule starts when the first one's last period ends (the 15th) and charges on its day: the start date's, the 1st.
      ['2027-01-01', 750],
    ]);
    const sub = await t.as(token).get(`/api/v2/subscriptions/${subscriptionId}`);
    expect(sub.body).toMatchObject({ status: 'completed', next_payment_at: null, next_amount: null });
    expect(await bill('2027-12-01')).toContain(': 0 due');
  });

  it.each([
    ['revoked here', 'local'],
    ['revoked at the provider only', 'provider'],
  ])('When the mandate was %s, then the charge is not made and a follow-up of type link asks the customer to pay', async (_, where) => {
    const { subscriptionId, customerId, mandateId } = await subscribe(t, token);
    if (where === 'local') {
      await t.ctx.db('mandates').where({ id: mandateId }).update({ status: 'invalid' });
    } else {
      const customer = await t.ctx.db('customers').where({ id: customerId }).first();
      await (await t.ctx.providers.forAccount({ id: accountId })).revokeMandate(customer.provider_customer_id, mandateId);
    }
    expect(await bill('2026-12-01')).toContain(': 1 due, 0 charged, 0 skipped, 1 not charged');
    expect(await sandboxCharges()).toHaveLength(0);
    const [charge] = await charges(subscriptionId);
    expect(charge.status).toBe('not_charged');
    // Refused by the provider: the charge points at the refused payment; refused here: no payment was made.
    const [refused] = await chargePayments(subscriptionId);
    expect(charge.payment_id).toBe(where === 'provider' ? refused?.id : null);
    if (where === 'provider') expect(refused).toMatchObject({ status: 'rejected' });
    const followUps = await t.as(token).get('/api/v2/follow-ups');
    expect(followUps.body.data).toEqual([
      expect.objectContaining({
        type: 'link',
        status: 'pending',
        amount: '12.50',
        reason_code: 'mandate_invalid',
        next_retry_at: '2026-11-22',
        subscription: expect.objectContaining({ id: subscriptionId }),
      }),
    ]);
  });

  it('When one charge fails unexpectedly, then the others are still made', async () => {
    const first = await subscribe(t, token);
    const second = await subscribe(t, token, { email: 'bert@example.nl' });
    // A customer whose provider id was lost: the charge cannot be made, the run goes on.
    await t.ctx
      .db('subscriptions')
      .where({ id: first.subscriptionId })
      .update({ customer_id: 'cus_missing' })
      .catch(() => undefined);
    await t.ctx.db('customers').where({ id: first.customerId }).update({ provider_customer_id: null });
    const out = await bill('2026-12-01');
    expect(out).toContain(': 2 due, 1 charged');
    expect(await chargePayments(second.subscriptionId)).toHaveLength(1);
  });
});

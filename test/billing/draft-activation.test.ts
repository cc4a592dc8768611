import { cli } from '../cli/runInMemory';
import { TEST_DATABASES } from '../support/databases';
import { accountAtMollieFake, type CustomerAnswer, type MollieAccount } from '../support/mollieAccount';
import { useTestApp } from '../support/testApp';

/**
 * A subscription made on a mandate that is still `pending` waits as a draft and becomes active by
 * itself when the mandate turns valid at Mollie (the refresh-mandates job asks). Its first charge is
 * the period due then: periods that passed while it waited are skipped rows, counted against
 * `times`, never charged. Against a Mollie fake; the clock starts at 2026-11-21 10:00 UTC.
 */
describe.each(TEST_DATABASES)('draft subscriptions activated when their mandate turns valid, on %s', (kind) => {
  const t = useTestApp(kind, { perTest: true });
  let mollie: MollieAccount;

  beforeEach(async () => {
    mollie = await accountAtMollieFake(t, 'Drafts');
  });
  afterEach(async () => {
    mollie.stop();
  });

  const refreshMandates = async () => {
    const run = await cli(t.ctx, 'jobs', 'run', 'refresh-mandates');
    expect(run.code).toBe(0);
    return run.out[0] ?? '';
  };
  const chargeRows = async (subscriptionId: string) =>
    (
      await t.ctx
        .db('subscription_charges')
        .where({ account_id: mollie.accountId, subscription_id: subscriptionId })
        .orderBy('charge_number')
    ).map((row) => [row.charge_number, String(row.due_date).slice(0, 10), row.status]);

  /** A customer whose mandate Mollie still holds `pending`: made by a paid mandate link. */
  async function customerWithPendingMandate(): Promise<{ customer: CustomerAnswer; mandateId: string }> {
    const customer = await mollie.newCustomer();
    const link = await t.as(mollie.token).post('/api/v2/links', { type: 'mandate', description: 'Authorise', customer_id: customer.id });
    const mandateId = await mollie.payLink(link.body.id, 'pending');
    expect(await t.ctx.db('mandates').where({ id: mandateId }).first()).toMatchObject({ status: 'pending' });
    return { customer, mandateId };
  }

  /** A monthly subscription of 10.00, `times` 6, made through the API on the customer's pending mandate, starting today. */
  async function subscribeOn(customer: CustomerAnswer, mandateId: string): Promise<string> {
    const res = await t.as(mollie.token).post('/api/v2/subscriptions', {
      name: 'Coffee box',
      customer_id: customer.id,
      provider_profile_id: 'pfl_test123456',
      provider_mandate_id: mandateId,
      start_date: '2026-11-21',
      rules: [{ amount: 10, interval: 'month', interval_amount: 1, times: 6 }],
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ status: 'draft', next_payment_at: '2026-11-21' });
    return res.body.id as string;
  }

  it(
    'When a subscription link is paid while its mandate is pending, then it waits as a draft and the job makes it active once Mollie ' +
      'says valid, with its next charge unchanged',
    async () => {
      const customer = await mollie.newCustomer();
      const link = await t.as(mollie.token).post('/api/v2/links', {
        type: 'subscription',
        description: 'Box',
        customer_id: customer.id,
        rules: [{ amount: 10, interval: 'month', interval_amount: 1, times: 3 }],
      });
      const mandateId = await mollie.payLink(link.body.id, 'pending');
      expect(await mollie.subscriptionOf(customer.id)).toMatchObject({
        status: 'draft',
        next_payment_at: '2026-12-21',
        rules: [expect.objectContaining({ times_done: 1 })],
      });

      // Still pending at Mollie: asked, nothing changes.
      expect(await refreshMandates()).toMatch(/^refresh-mandates: 1 processed, 0 failed/);
      expect((await mollie.subscriptionOf(customer.id)).status).toBe('draft');

      mollie.fake.setMandateStatus(mandateId, 'valid');
      t.clock.set('2026-11-22T10:00:00Z');
      expect(await refreshMandates()).toMatch(/^refresh-mandates: 1 processed, 0 failed/);
      const active = await mollie.subscriptionOf(customer.id);
      expect(active).toMatchObject({
        status: 'active',
        next_payment_at: '2026-12-21',
        rules: [expect.objectContaining({ times: 3, times_done: 1 })],
      });
      expect(await t.ctx.db('mandates').where({ id: mandateId }).first()).toMatchObject({ status: 'valid', checked_at: expect.anything() });
      expect(await chargeRows(active.id)).toEqual([[1, '2026-11-21', 'paid']]);

      expect((await mollie.billThroughLife(customer.id)).status).toBe('completed');
      expect(mollie.paymentsAtMollie(customer)).toHaveLength(3);
    },
  );

  it(
    'When the mandate turns valid months after the start, then the periods that passed are skipped and counted, never charged, and ' +
      'the first charge is the next one due',
    async () => {
      const { customer, mandateId } = await customerWithPendingMandate();
      const subscriptionId = await subscribeOn(customer, mandateId);
      // A draft is not billed while it waits.
      expect(await mollie.billOn('2026-11-21')).toContain(' 0 charged');
      expect(await mollie.billOn('2026-12-21')).toContain(' 0 charged');

      mollie.fake.setMandateStatus(mandateId, 'valid');
      t.clock.set('2027-02-10T10:00:00Z');
      await refreshMandates();
      expect(await mollie.subscriptionOf(customer.id)).toMatchObject({
        status: 'active',
        next_payment_at: '2027-02-21',
        rules: [expect.objectContaining({ times: 6, times_done: 3 })],
      });
      expect(await chargeRows(subscriptionId)).toEqual([
        [1, '2026-11-21', 'skipped'],
        [2, '2026-12-21', 'skipped'],
        [3, '2027-01-21', 'skipped'],
      ]);

      // The day's billing run charges none of them; the rest of the life is charged as scheduled.
      expect(await mollie.billOn('2027-02-10')).toContain(' 0 charged');
      const ended = await mollie.billThroughLife(customer.id);
      expect(ended).toMatchObject({ status: 'completed', rules: [expect.objectContaining({ times: 6, times_done: 6 })] });
      const charged = await t.ctx
        .db('payments')
        .where({ account_id: mollie.accountId, subscription_id: subscriptionId, purpose: 'charge' })
        .orderBy('created_at');
      expect(charged.map((payment) => payment.description)).toEqual([
        'Coffee box 2027-02-21',
        'Coffee box 2027-03-21',
        'Coffee box 2027-04-21',
      ]);
      // The mandate link's first payment and the three charges: nothing else was ever asked of the customer.
      expect(mollie.paymentsAtMollie(customer)).toHaveLength(4);
    },
  );

  it('When the mandate turns valid on the day of a charge, then that charge is made: only earlier ones are skipped', async () => {
    const { customer, mandateId } = await customerWithPendingMandate();
    const subscriptionId = await subscribeOn(customer, mandateId);
    mollie.fake.setMandateStatus(mandateId, 'valid');
    t.clock.set('2026-12-21T05:00:00Z');
    await refreshMandates();
    expect(await mollie.subscriptionOf(customer.id)).toMatchObject({
      status: 'active',
      next_payment_at: '2026-12-21',
      rules: [expect.objectContaining({ times_done: 1 })],
    });
    expect(await mollie.billOn('2026-12-21')).toContain(' 1 charged');
    expect(await chargeRows(subscriptionId)).toEqual([
      [1, '2026-11-21', 'skipped'],
      [2, '2026-12-21', 'paid'],
    ]);
  });

  it('When a draft was cancelled before its mandate turned valid, then it stays cancelled', async () => {
    const { customer, mandateId } = await customerWithPendingMandate();
    const subscriptionId = await subscribeOn(customer, mandateId);
    expect((await t.as(mollie.token).delete(`/api/v2/subscriptions/${subscriptionId}`)).body.status).toBe('cancelled');
    mollie.fake.setMandateStatus(mandateId, 'valid');
    await refreshMandates();
    expect(await mollie.subscriptionOf(customer.id)).toMatchObject({ status: 'cancelled' });
    expect(await t.ctx.db('mandates').where({ id: mandateId }).first()).toMatchObject({ status: 'valid' });
  });
});

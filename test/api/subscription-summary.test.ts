import request from 'supertest';
import { seedFollowUp } from '../support/seed';
import { TEST_DATABASES } from '../support/databases';
import { useTestApp } from '../support/testApp';

/**
 * `GET /api/v2/subscription-summary`: the store's dashboard widget asks the account's figures. Monthly recurring
 * revenue is summed from exact per-month fractions and rounded once, so it can differ from a sum of rounded parts.
 */
describe.each(TEST_DATABASES)('the subscription summary on %s', (kind) => {
  const t = useTestApp(kind);

  /** A customer with a valid mandate, made through the API. */
  const customerWithMandate = async (token: string): Promise<{ customerId: string; mandateId: string }> => {
    const customer = await t.as(token).post('/api/v2/customers', { first_name: 'Anna', last_name: 'de Vries', email: 'anna@example.nl' });
    const mandate = await t
      .as(token)
      .post(`/api/v2/customers/${customer.body.id}/mandates`, { consumer_name: 'A. de Vries', consumer_account: 'NL91ABNA0417164300' });
    expect(mandate.status).toBe(201);
    return { customerId: customer.body.id, mandateId: mandate.body.id };
  };

  const subscribe = async (token: string, owner: { customerId: string; mandateId: string }, rules: object[]): Promise<string> => {
    const res = await t.as(token).post('/api/v2/subscriptions', {
      name: 'Coffee box',
      customer_id: owner.customerId,
      provider_profile_id: 'pfl_test123456',
      provider_mandate_id: owner.mandateId,
      start_date: '2026-12-01',
      rules,
    });
    expect(res.status).toBe(201);
    expect(res.body.status).toBe('active');
    return res.body.id;
  };

  it(
    'When an account has subscriptions of every interval, a paused and a cancelled one, then active and paused are counted, MRR ' +
      'sums the active ones’ current rule per month rounded half up once, and pending follow-ups are the open ones; another ' +
      'account’s are not counted',
    async () => {
      const { token, accountId } = await t.newAccount();
      const other = await t.newAccount();
      const owner = await customerWithMandate(token);
      const rule = (amount: number, interval: string, interval_amount: number, times?: number) => ({
        amount,
        interval,
        interval_amount,
        times,
      });

      // 12.50 + 24.20/2 + 100.00/12 + 10.00×52/12 + 1.00×365/36 = 86.405555… → 86.41 (rounding each part would give 86.40).
      await subscribe(token, owner, [rule(12.5, 'month', 1)]);
      await subscribe(token, owner, [rule(24.2, 'month', 2, 3)]);
      await subscribe(token, owner, [rule(100, 'year', 1)]);
      await subscribe(token, owner, [rule(10, 'week', 1)]);
      await subscribe(token, owner, [rule(1, 'day', 3)]);
      const paused = await subscribe(token, owner, [rule(50, 'month', 1)]);
      expect((await t.as(token).post(`/api/v2/subscriptions/${paused}/pause`, {})).status).toBe(200);
      const cancelled = await subscribe(token, owner, [rule(70, 'month', 1)]);
      expect((await t.as(token).delete(`/api/v2/subscriptions/${cancelled}`)).status).toBe(200);
      await subscribe(other.token, await customerWithMandate(other.token), [rule(999, 'month', 1)]);

      await seedFollowUp(t.ctx.db, accountId);
      await seedFollowUp(t.ctx.db, accountId);
      await seedFollowUp(t.ctx.db, accountId, { status: 'solved' });
      await seedFollowUp(t.ctx.db, other.accountId);

      const res = await t.as(token).get('/api/v2/subscription-summary');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        active_subscriptions: 5,
        paused_subscriptions: 1,
        monthly_recurring_revenue: '86.41',
        currency: 'EUR',
        open_follow_ups: 2,
      });
    },
  );

  it('When the account has nothing yet, then every figure is zero', async () => {
    const { token } = await t.newAccount();
    const res = await t.as(token).get('/api/v2/subscription-summary');
    expect(res.body).toEqual({
      active_subscriptions: 0,
      paused_subscriptions: 0,
      monthly_recurring_revenue: '0.00',
      currency: 'EUR',
      open_follow_ups: 0,
    });
  });

  it('When no token is sent, then the answer is 401', async () => {
    expect((await request(t.app).get('/api/v2/subscription-summary')).status).toBe(401);
  });
});

import type { Knex } from 'knex';
import { newId } from '../../src/ids';
import { paymentListItem } from '../../src/modules/payments/schemas';
import { TEST_DATABASES } from '../support/databases';
import { itBehavesLikeAPagedList } from '../support/pagedList';
import { SEEDED_AT, seedCustomer, seedFollowUp, seedOrder, seedPaymentLink, seedSubscription } from '../support/seed';
import { useTestApp } from '../support/testApp';

/** A payment row as the pipeline leaves one, for list tests (the provider is not involved). */
async function seedPayment(
  db: Knex,
  accountId: string,
  overrides: { customer_id?: string | null; subscription_id?: string | null; status?: string; description?: string } = {},
): Promise<string> {
  const id = newId('pay');
  await db('payments').insert({
    id,
    account_id: accountId,
    customer_id: overrides.customer_id ?? null,
    subscription_id: overrides.subscription_id ?? null,
    purpose: 'api',
    purpose_id: null,
    origin_key: null,
    provider_payment_id: `tr_${id.slice(4, 14)}`,
    provider_customer_id: null,
    provider_mandate_id: null,
    provider_profile_id: null,
    sequence_type: 'oneoff',
    status: overrides.status ?? 'paid',
    amount: 1250,
    currency: 'EUR',
    description: overrides.description ?? 'Coffee',
    method: null,
    redirect_url: null,
    webhook_url: null,
    checkout_url: null,
    failure_reason: null,
    failure_code: null,
    paid_at: null,
    next_attempt_at: null,
    create_attempts: 0,
    created_at: SEEDED_AT,
    updated_at: SEEDED_AT,
  });
  return id;
}

describe.each(TEST_DATABASES)('list filters on %s', (kind) => {
  const t = useTestApp(kind);
  let token: string;
  let accountId: string;
  let other: { token: string; accountId: string };
  const ids = (body: { data: Array<{ id: string }> }) => body.data.map((item) => item.id);

  beforeAll(async () => {
    ({ token, accountId } = await t.newAccount());
    other = await t.newAccount();
  });

  describe('GET /api/v2/payments', () => {
    itBehavesLikeAPagedList({
      app: () => t,
      path: '/api/v2/payments',
      plural: 'payments',
      item: paymentListItem,
      seed: (app, account, index) => seedPayment(app.ctx.db, account, { description: `P${index}` }),
      notFound: 'Payment not found',
      unknownId: 'pay_0000000000000000',
    });
  });

  it('When payments are filtered by customer, subscription and status, then only matching ones come, combined with paging', async () => {
    const anna = await seedCustomer(t.ctx.db, accountId);
    const bob = await seedCustomer(t.ctx.db, accountId);
    const { subscription } = await seedSubscription(t.ctx.db, accountId, anna.id);
    const annaPaid = [];
    for (let index = 0; index < 3; index += 1) {
      annaPaid.push(await seedPayment(t.ctx.db, accountId, { customer_id: anna.id, subscription_id: subscription.id, status: 'paid' }));
    }
    const annaFailed = await seedPayment(t.ctx.db, accountId, { customer_id: anna.id, subscription_id: subscription.id, status: 'failed' });
    await seedPayment(t.ctx.db, accountId, { customer_id: bob.id, status: 'paid' });

    const byCustomer = await t.as(token).get(`/api/v2/payments?customer_id=${anna.id}`);
    expect(byCustomer.status).toBe(200);
    expect(ids(byCustomer.body)).toEqual([...annaPaid, annaFailed]);
    const bySubscriptionAndStatus = await t
      .as(token)
      .get(`/api/v2/payments?subscription_id=${subscription.id}&status=paid&per_page=2&page=2`);
    expect(ids(bySubscriptionAndStatus.body)).toEqual([annaPaid[2]]);
    expect(bySubscriptionAndStatus.body.meta).toMatchObject({ current_page: 2, last_page: 2, total: 3, per_page: 2 });
    // The page links keep the filters, as they keep per_page.
    expect(bySubscriptionAndStatus.body.links.prev).toContain(`subscription_id=${subscription.id}`);
    expect(bySubscriptionAndStatus.body.links.prev).toContain('status=paid');
    const failed = await t.as(token).get(`/api/v2/payments?status=failed&customer_id=${anna.id}`);
    expect(ids(failed.body)).toEqual([annaFailed]);
    // Another account's ids filter to nothing: no error that would tell they exist.
    const foreign = await t.as(other.token).get(`/api/v2/payments?customer_id=${anna.id}`);
    expect(foreign.status).toBe(200);
    expect(foreign.body.data).toEqual([]);
    expect(foreign.body.meta.total).toBe(0);
  });

  it('When subscriptions are filtered by customer and status, then only matching ones come; other accounts see none', async () => {
    const anna = await seedCustomer(t.ctx.db, accountId);
    const bob = await seedCustomer(t.ctx.db, accountId);
    const active = (await seedSubscription(t.ctx.db, accountId, anna.id)).subscription.id;
    const cancelled = (await seedSubscription(t.ctx.db, accountId, anna.id, { status: 'cancelled' })).subscription.id;
    await seedSubscription(t.ctx.db, accountId, bob.id);
    expect(ids((await t.as(token).get(`/api/v2/subscriptions?customer_id=${anna.id}`)).body)).toEqual([active, cancelled]);
    expect(ids((await t.as(token).get(`/api/v2/subscriptions?customer_id=${anna.id}&status=cancelled`)).body)).toEqual([cancelled]);
    const paged = await t.as(token).get(`/api/v2/subscriptions?customer_id=${anna.id}&per_page=1&page=2`);
    expect(ids(paged.body)).toEqual([cancelled]);
    expect(paged.body.meta).toMatchObject({ total: 2, last_page: 2 });
    expect((await t.as(other.token).get(`/api/v2/subscriptions?customer_id=${anna.id}`)).body.data).toEqual([]);
  });

  it('When follow-ups, orders and links are filtered, then only matching ones come; other accounts see none', async () => {
    const anna = await seedCustomer(t.ctx.db, accountId);
    const { subscription } = await seedSubscription(t.ctx.db, accountId, anna.id);
    const pendingOfSubscription = (await seedFollowUp(t.ctx.db, accountId, { subscription_id: subscription.id, customer_id: anna.id })).id;
    const solvedOfSubscription = (
      await seedFollowUp(t.ctx.db, accountId, { subscription_id: subscription.id, customer_id: anna.id, status: 'solved' })
    ).id;
    await seedFollowUp(t.ctx.db, accountId, { status: 'solved' });
    expect(ids((await t.as(token).get(`/api/v2/follow-ups?subscription_id=${subscription.id}`)).body)).toEqual([
      pendingOfSubscription,
      solvedOfSubscription,
    ]);
    expect(ids((await t.as(token).get(`/api/v2/follow-ups?subscription_id=${subscription.id}&status=solved`)).body)).toEqual([
      solvedOfSubscription,
    ]);
    expect((await t.as(other.token).get(`/api/v2/follow-ups?subscription_id=${subscription.id}`)).body.data).toEqual([]);

    const cancelledOrder = (await seedOrder(t.ctx.db, accountId, [], { status: 'cancelled' })).order.id;
    await seedOrder(t.ctx.db, accountId, [], { status: 'paid' });
    expect(ids((await t.as(token).get('/api/v2/orders?status=cancelled')).body)).toEqual([cancelledOrder]);

    const expiredLink = (await seedPaymentLink(t.ctx.db, accountId, { status: 'expired' })).id;
    await seedPaymentLink(t.ctx.db, accountId, { status: 'open' });
    expect(ids((await t.as(token).get('/api/v2/links?status=expired')).body)).toEqual([expiredLink]);
    expect((await t.as(other.token).get('/api/v2/links?status=expired')).body.data).toEqual([]);
  });

  it.each([
    ['/api/v2/subscriptions?status=running', 'status'],
    ['/api/v2/subscriptions?customer_id=sub_notacustomer', 'customer_id'],
    ['/api/v2/payments?status=done', 'status'],
    ['/api/v2/payments?subscription_id=x%27%20or%201=1', 'subscription_id'],
    ['/api/v2/payments?customer_id=', 'customer_id'],
    ['/api/v2/follow-ups?status=open', 'status'],
    ['/api/v2/follow-ups?subscription_id=fu_abc', 'subscription_id'],
    ['/api/v2/orders?status=shipped', 'status'],
    ['/api/v2/links?status=active', 'status'],
  ])('When %s names a value that cannot exist, then it answers 422 naming the filter', async (path, field) => {
    const res = await t.as(token).get(path);
    expect(res.status).toBe(422);
    expect(res.body.fields).toHaveProperty(field);
    expect(res.body.error).toMatch(/^Could not list /);
  });
});

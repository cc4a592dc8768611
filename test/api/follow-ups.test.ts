import { followUpResponse } from '../../src/modules/follow-ups/schemas';
import { TEST_DATABASES } from '../support/databases';
import { countQueries, seedCustomer, seedFollowUp, seedOrder, seedProduct, seedSubscription } from '../support/seed';
import { itBehavesLikeAPagedList } from '../support/pagedList';
import { useTestApp } from '../support/testApp';

describe.each(TEST_DATABASES)('follow-ups on %s', (kind) => {
  const t = useTestApp(kind);
  let token: string;
  let accountId: string;

  beforeAll(async () => {
    ({ token, accountId } = await t.newAccount());
  });

  /** A customer with a subscription and an order of one product, as a failed renewal has them. */
  const seedRelations = async (account: string) => {
    const customer = await seedCustomer(t.ctx.db, account);
    const { subscription } = await seedSubscription(t.ctx.db, account, customer.id);
    const product = await seedProduct(t.ctx.db, account, { type: 'subscription', interval: 'month', interval_value: 1 });
    const { order } = await seedOrder(t.ctx.db, account, [{ product_id: product.id, quantity: 1, next_order: '2026-12-21' }], {
      subscription_id: subscription.id,
      subscription_status: 'active',
    });
    return { customer, subscription, order };
  };

  describe('GET /api/v2/follow-ups/{id}', () => {
    it(
      'When a follow-up has every field, then it answers 200 with it field by field and its customer, subscription and ' + 'order',
      async () => {
        const { customer, subscription, order } = await seedRelations(accountId);
        const followUp = await seedFollowUp(t.ctx.db, accountId, {
          type: 'both',
          status: 'pending',
          description: 'Coffee club, December',
          amount: 1250,
          provider_profile_id: 'pfl_seeded0001',
          provider_payment_id: 'tr_failed0001',
          reason: 'Insufficient funds',
          reason_code: 'AM04',
          retries_done: 2,
          mails_sent: 1,
          next_retry_at: '2026-11-24',
          customer_id: customer.id,
          subscription_id: subscription.id,
          order_id: order.id,
        });

        const res = await t.as(token).get(`/api/v2/follow-ups/${followUp.id}`);
        expect(res.status).toBe(200);
        expect(followUpResponse.strict().parse(res.body)).toEqual(res.body);
        const customerAnswer = await t.as(token).get(`/api/v2/customers/${customer.id}`);
        const orderAnswer = await t.as(token).get(`/api/v2/orders/${order.id}`);
        expect(res.body).toEqual({
          id: followUp.id,
          description: 'Coffee club, December',
          type: 'both',
          status: 'pending',
          amount: '12.50',
          currency: 'EUR',
          created_at: '2026-11-21 11:00:00',
          provider_profile_id: 'pfl_seeded0001',
          provider_payment_id: 'tr_failed0001',
          reason: 'Insufficient funds',
          reason_code: 'AM04',
          retries_done: 2,
          mails_sent: 1,
          next_retry_at: '2026-11-24',
          customer: customerAnswer.body,
          subscription: {
            id: subscription.id,
            name: 'Coffee every month',
            status: 'active',
            start_date: '2026-12-01',
            created_at: '2026-11-21 11:00:00',
            provider_mandate_id: 'mdt_seeded0001',
            provider_profile_id: 'pfl_seeded0001',
            next_payment_at: '2026-12-01',
            next_amount: '12.50',
            last_payment_created_at: null,
            resume_at: null,
            cancel_at: null,
            rules: [
              {
                id: expect.stringMatching(/^rul_/),
                amount: '12.50',
                currency: 'EUR',
                interval: 'month',
                interval_amount: 1,
                day: 1,
                times_done: 0,
                times: null,
              },
            ],
          },
          order: orderAnswer.body,
        });
        expect(res.body.order).toMatchObject({
          id: order.id,
          subscription: subscription.id,
          products: [{ quantity: 1, next_order: '2026-12-21' }],
        });
      },
    );

    it('When a follow-up has no relations and no failure details yet, then those fields are null', async () => {
      const followUp = await seedFollowUp(t.ctx.db, accountId);
      const res = await t.as(token).get(`/api/v2/follow-ups/${followUp.id}`);
      expect(res.status).toBe(200);
      expect(followUpResponse.strict().parse(res.body)).toEqual(res.body);
      expect(res.body).toEqual({
        id: followUp.id,
        description: 'Coffee every month, December',
        type: 'retry',
        status: 'pending',
        amount: '12.50',
        currency: 'EUR',
        created_at: '2026-11-21 11:00:00',
        provider_profile_id: null,
        provider_payment_id: null,
        reason: null,
        reason_code: null,
        retries_done: 0,
        mails_sent: 0,
        next_retry_at: null,
        customer: null,
        subscription: null,
        order: null,
      });
    });

    it('When its relations are rows of another account, then they read as null and nothing of that account shows', async () => {
      const other = await t.newAccount();
      const { customer, subscription, order } = await seedRelations(other.accountId);
      const followUp = await seedFollowUp(t.ctx.db, accountId, {
        customer_id: customer.id,
        subscription_id: subscription.id,
        order_id: order.id,
      });
      const res = await t.as(token).get(`/api/v2/follow-ups/${followUp.id}`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ customer: null, subscription: null, order: null });
    });
  });

  describe('GET /api/v2/follow-ups', () => {
    it(
      'When a page holds 15 follow-ups with customer, subscription and order, then it costs as many queries as a page with ' + 'one',
      async () => {
        const seedFollowUps = async (count: number) => {
          const account = await t.newAccount();
          for (let i = 0; i < count; i += 1) {
            const { customer, subscription, order } = await seedRelations(account.accountId);
            await seedFollowUp(t.ctx.db, account.accountId, {
              customer_id: customer.id,
              subscription_id: subscription.id,
              order_id: order.id,
            });
          }
          return account.token;
        };
        const one = await seedFollowUps(1);
        const fifteen = await seedFollowUps(15);
        const queriesForOne = await countQueries(t.ctx.db, () => t.as(one).get('/api/v2/follow-ups').expect(200));
        let body: { data: Array<{ customer: unknown; subscription: unknown; order: { products: unknown[] } | null }> } = { data: [] };
        const queriesForFifteen = await countQueries(t.ctx.db, async () => {
          body = (await t.as(fifteen).get('/api/v2/follow-ups').expect(200)).body;
        });
        expect(body.data).toHaveLength(15);
        expect(body.data.every((f) => f.customer !== null && f.subscription !== null && f.order?.products.length === 1)).toBe(true);
        expect(queriesForOne).toBeGreaterThan(0);
        expect(queriesForFifteen).toBe(queriesForOne);
      },
    );
  });

  describe('the paged list', () => {
    itBehavesLikeAPagedList({
      app: () => t,
      path: '/api/v2/follow-ups',
      plural: 'follow-ups',
      item: followUpResponse,
      seed: async (app, accountId, index) => (await seedFollowUp(app.ctx.db, accountId, { description: `F${index}` })).id,
      notFound: 'Follow-up not found',
      unknownId: 'fu_doesnotexist0000',
    });
  });
});

import { paymentLinkResponse } from '../../src/modules/links/schemas';
import { TEST_DATABASES } from '../support/databases';
import { countQueries, seedCustomer, seedPaymentLink, seedSubscription } from '../support/seed';
import { itBehavesLikeAPagedList } from '../support/pagedList';
import { useTestApp, TEST_PUBLIC_URL } from '../support/testApp';

describe.each(TEST_DATABASES)('payment links on %s', (kind) => {
  const t = useTestApp(kind);
  let token: string;
  let accountId: string;

  beforeAll(async () => {
    ({ token, accountId } = await t.newAccount());
  });

  describe('GET /api/v2/links/{id}', () => {
    it(
      'When a subscription link has every field, then it answers 200 with the link field by field, its customer and its ' + 'subscription',
      async () => {
        const customer = await seedCustomer(t.ctx.db, accountId, { city: 'Utrecht' });
        const { subscription } = await seedSubscription(t.ctx.db, accountId, customer.id);
        const link = await seedPaymentLink(t.ctx.db, accountId, {
          type: 'subscription',
          status: 'paid',
          active: false,
          description: 'Coffee club',
          amount: 995,
          first_amount: 100,
          interval: 'month',
          times: 12,
          trial_interval: '14 days',
          reminder_at: '2026-11-28 23:30:00',
          redirect_url_paid: 'https://shop.example/thanks',
          redirect_url_failed: 'https://shop.example/sorry',
          expires_at: '2026-12-31',
          customer_id: customer.id,
          subscription_id: subscription.id,
        });

        const res = await t.as(token).get(`/api/v2/links/${link.id}`);
        expect(res.status).toBe(200);
        expect(paymentLinkResponse.strict().parse(res.body)).toEqual(res.body);
        const customerAnswer = await t.as(token).get(`/api/v2/customers/${customer.id}`);
        expect(res.body).toEqual({
          id: link.id,
          status: 'paid',
          active: false,
          type: 'subscription',
          description: 'Coffee club',
          currency: 'EUR',
          created_at: '2026-11-21 11:00:00',
          url: `${TEST_PUBLIC_URL}/pay/${link.id}`,
          amount: '9.95',
          first_amount: '1.00',
          interval: 'month',
          times: 12,
          trial_interval: '14 days',
          // 23:30 UTC is 00:30 the next day in Amsterdam (CET).
          reminder_at: '2026-11-29 00:30:00',
          redirect_url_paid: 'https://shop.example/thanks',
          redirect_url_failed: 'https://shop.example/sorry',
          expires_at: '2026-12-31',
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
        });
        expect(customerAnswer.body).toMatchObject({ id: customer.id, city: 'Utrecht' });
      },
    );

    it('When a one-off link has no customer, subscription or optional fields, then they are null and active is true', async () => {
      const link = await seedPaymentLink(t.ctx.db, accountId);
      const res = await t.as(token).get(`/api/v2/links/${link.id}`);
      expect(res.status).toBe(200);
      expect(paymentLinkResponse.strict().parse(res.body)).toEqual(res.body);
      expect(res.body).toEqual({
        id: link.id,
        status: 'open',
        active: true,
        type: 'payment',
        description: 'Invoice 2026-001',
        currency: 'EUR',
        created_at: '2026-11-21 11:00:00',
        url: `${TEST_PUBLIC_URL}/pay/${link.id}`,
        amount: '25.00',
        first_amount: null,
        interval: null,
        times: null,
        trial_interval: null,
        reminder_at: null,
        redirect_url_paid: null,
        redirect_url_failed: null,
        expires_at: null,
        customer: null,
        subscription: null,
      });
    });

    it('When its customer and subscription are rows of another account, then they read as null', async () => {
      const other = await t.newAccount();
      const customer = await seedCustomer(t.ctx.db, other.accountId);
      const { subscription } = await seedSubscription(t.ctx.db, other.accountId, customer.id);
      const link = await seedPaymentLink(t.ctx.db, accountId, { customer_id: customer.id, subscription_id: subscription.id });
      const res = await t.as(token).get(`/api/v2/links/${link.id}`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ customer: null, subscription: null });
    });
  });

  describe('GET /api/v2/links', () => {
    it('When a page holds 15 links with a customer and a subscription each, then it costs as many queries as a page with one', async () => {
      const seedLinks = async (count: number) => {
        const account = await t.newAccount();
        for (let i = 0; i < count; i += 1) {
          const customer = await seedCustomer(t.ctx.db, account.accountId);
          const { subscription } = await seedSubscription(t.ctx.db, account.accountId, customer.id);
          await seedPaymentLink(t.ctx.db, account.accountId, {
            customer_id: customer.id,
            subscription_id: subscription.id,
            type: 'subscription',
          });
        }
        return account.token;
      };
      const one = await seedLinks(1);
      const fifteen = await seedLinks(15);
      const queriesForOne = await countQueries(t.ctx.db, () => t.as(one).get('/api/v2/links').expect(200));
      let body: { data: Array<{ customer: unknown; subscription: unknown }> } = { data: [] };
      const queriesForFifteen = await countQueries(t.ctx.db, async () => {
        body = (await t.as(fifteen).get('/api/v2/links').expect(200)).body;
      });
      expect(body.data).toHaveLength(15);
      expect(body.data.every((link) => link.customer !== null && link.subscription !== null)).toBe(true);
      expect(queriesForOne).toBeGreaterThan(0);
      expect(queriesForFifteen).toBe(queriesForOne);
    });
  });

  describe('the paged list', () => {
    itBehavesLikeAPagedList({
      app: () => t,
      path: '/api/v2/links',
      plural: 'payment links',
      item: paymentLinkResponse,
      seed: async (app, accountId, index) => (await seedPaymentLink(app.ctx.db, accountId, { description: `L${index}` })).id,
      notFound: 'Payment link not found',
      unknownId: 'lnk_doesnotexist0000',
    });
  });
});

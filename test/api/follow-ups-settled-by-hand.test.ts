import request from 'supertest';
import { finishStalledCreations } from '../../src/jobs/finishProviderCreations';
import { runBilling } from '../../src/modules/billing/run';
import { runFollowUps } from '../../src/modules/follow-ups/progress';
import { cli } from '../cli/runInMemory';
import { seedBillableSubscriptions } from '../support/billing';
import { TEST_DATABASES } from '../support/databases';
import type { MollieFake } from '../../fakes/mollie/fake';
import { accountAtMollieFake, type MollieAccount } from '../support/mollieAccount';
import { useTestApp } from '../support/testApp';

type Details = Record<string, string>;
const SEPA = (code: string, reason: string): Details => ({ bankReasonCode: code, bankReason: reason });

/**
 * `PUT /api/v2/follow-ups/{id}` to solved or failed ends what the follow-up set going: its payment
 * link answers 410, its retry and link payments still under way are cancelled at Mollie (the fake),
 * and no later run of the follow-ups job charges again.
 */
describe.each(TEST_DATABASES)('a follow-up settled by hand on %s', (kind) => {
  const t = useTestApp(kind, { perTest: true });
  let mollie: MollieAccount;
  let fake: MollieFake;
  let accountId: string;
  let token: string;

  beforeEach(async () => {
    mollie = await accountAtMollieFake(t, 'Settled by hand');
    ({ fake, accountId, token } = mollie);
    await seedBillableSubscriptions(t.ctx.db, accountId, 1);
    for (const customer of await t.ctx.db('customers').where({ account_id: accountId })) {
      fake.customers.set(customer.provider_customer_id, { resource: 'customer', id: customer.provider_customer_id });
    }
  });
  afterEach(async () => {
    mollie.stop();
  });

  const on = (date: string) => t.clock.set(`${date}T07:00:00Z`);
  const onlyFollowUp = async () => {
    const list = (await t.as(token).get('/api/v2/follow-ups')).body.data as Array<Record<string, unknown> & { id: string }>;
    expect(list).toHaveLength(1);
    return list[0] as Record<string, unknown> & { id: string };
  };
  const paymentsFor = (purpose: 'follow-up' | 'link') =>
    t.ctx.db('payments').where({ account_id: accountId, purpose }).orderBy('created_at');
  const atFake = (providerPaymentId: string) => fake.payments.get(providerPaymentId)?.status;

  const report = (providerPaymentId: string) => mollie.report(providerPaymentId);

  /** The charge of 1 December fails with `details`; the follow-up it opens is returned. */
  async function failedCharge(details: Details) {
    on('2026-12-01');
    expect(await runBilling(t.ctx, '2026-12-01')).toMatchObject({ charged: 1 });
    const charge = await t.ctx.db('payments').where({ account_id: accountId, purpose: 'charge' }).first();
    fake.setPaymentStatus(charge.provider_payment_id, 'failed', details);
    await report(charge.provider_payment_id);
    return onlyFollowUp();
  }

  /** Settles the follow-up by hand and waits for what follows the commit. */
  async function settle(id: string, status: 'solved' | 'failed') {
    const res = await t.as(token).put(`/api/v2/follow-ups/${id}`, { status });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id, status, next_retry_at: null });
    await t.ctx.background.idle();
  }

  /** Every later run of the follow-ups job, by the CLI and directly, makes no payment. */
  async function nothingChargedLater() {
    const before = fake.payments.size;
    for (const date of ['2026-12-07', '2026-12-10', '2026-12-20']) {
      on(date);
      expect((await cli(t.ctx, 'follow-ups', 'run', '--date', date)).out).toEqual([
        'follow-ups: 0 retried, 0 links sent, 0 failed, 0 errors',
      ]);
      expect(await runFollowUps(t.ctx, date)).toMatchObject({ retried: 0, linked: 0, failed: 0, errors: 0 });
    }
    expect(fake.payments.size).toBe(before);
  }

  it(
    'When a follow-up whose retry is pending at Mollie is set solved, then that retry is canceled at Mollie and here, and no run ' +
      'charges again',
    async () => {
      const { id } = await failedCharge(SEPA('AM04', 'Insufficient funds'));
      on('2026-12-04');
      expect(await runFollowUps(t.ctx, '2026-12-04')).toMatchObject({ retried: 1 });
      const [retry] = await paymentsFor('follow-up');
      expect(retry).toMatchObject({ status: 'pending', origin_key: `follow-up-${id}-retry-1` });
      expect(atFake(retry.provider_payment_id)).toBe('pending');

      await settle(id, 'solved');
      expect(atFake(retry.provider_payment_id)).toBe('canceled');
      expect((await paymentsFor('follow-up'))[0]).toMatchObject({ id: retry.id, status: 'canceled' });
      expect(await onlyFollowUp()).toMatchObject({ status: 'solved' });
      await nothingChargedLater();
      expect(await onlyFollowUp()).toMatchObject({ status: 'solved', retries_done: 1 });
    },
  );

  it(
    'When a follow-up whose link was e-mailed is set failed, then the link page answers 410, its open payment is canceled at Mollie, ' +
      'and nothing is charged later',
    async () => {
      const { id } = await failedCharge(SEPA('AC04', 'Account closed'));
      on('2026-12-02');
      expect(await runFollowUps(t.ctx, '2026-12-02')).toMatchObject({ linked: 1 });
      const link = await t.ctx.db('payment_links').where({ account_id: accountId }).first();
      expect((await request(t.app).get(`/pay/${link.id}`)).status).toBe(200);
      expect((await request(t.app).post(`/pay/${link.id}`).type('form').send({})).status).toBe(303);
      const [linkPayment] = await paymentsFor('link');
      expect(atFake(linkPayment.provider_payment_id)).toBe('open');

      await settle(id, 'failed');
      const page = await request(t.app).get(`/pay/${link.id}`);
      expect(page.status).toBe(410);
      expect(page.text).toContain('Deze betaallink is door de verkoper ingetrokken.'); // the customer's language
      expect((await request(t.app).post(`/pay/${link.id}`).type('form').send({})).status).toBe(410);
      const withdrawn = await t.ctx.db('payment_links').where({ id: link.id }).first();
      expect([withdrawn.status, Number(withdrawn.active)]).toEqual(['cancelled', 0]);
      expect(atFake(linkPayment.provider_payment_id)).toBe('canceled');
      expect((await paymentsFor('link'))[0]).toMatchObject({ status: 'canceled' });
      await nothingChargedLater();
      expect(await onlyFollowUp()).toMatchObject({ status: 'failed' });
    },
  );

  it(
    'When the retry’s answer was lost when the follow-up is set solved, then the payment Mollie made is finished and ' + 'canceled',
    async () => {
      const { id } = await failedCharge(SEPA('AM04', 'Insufficient funds'));
      on('2026-12-04');
      fake.loseAnswers('POST', /^\/v2\/payments/, 1);
      await runFollowUps(t.ctx, '2026-12-04');
      const [retry] = await paymentsFor('follow-up');
      expect(retry).toMatchObject({ status: 'creating' });
      const [atMollie] = fake.paymentsWithReference(retry.id);
      expect(atMollie).toMatchObject({ status: 'pending' });

      await settle(id, 'solved');
      expect(fake.paymentsWithReference(retry.id)).toEqual([expect.objectContaining({ id: atMollie?.id, status: 'canceled' })]);
      expect((await paymentsFor('follow-up'))[0]).toMatchObject({ id: retry.id, status: 'canceled', provider_payment_id: atMollie?.id });
      await nothingChargedLater();
    },
  );

  it(
    'When Mollie cannot be reached while settling, then the retry finished later by the creations job is canceled by the next ' +
      'follow-ups run',
    async () => {
      const { id } = await failedCharge(SEPA('AM04', 'Insufficient funds'));
      on('2026-12-04');
      fake.loseAnswers('POST', /^\/v2\/payments/, 1);
      await runFollowUps(t.ctx, '2026-12-04');
      const [retry] = await paymentsFor('follow-up');
      fake.unreachable('POST', /^\/v2\/payments/);
      await settle(id, 'solved');
      expect((await paymentsFor('follow-up'))[0]).toMatchObject({ status: 'creating' });

      fake.heal();
      t.clock.advance(10 * 60_000);
      await finishStalledCreations(t.ctx, new AbortController().signal);
      const [finished] = await paymentsFor('follow-up');
      expect(finished).toMatchObject({ id: retry.id, status: 'pending' });
      expect(atFake(finished.provider_payment_id)).toBe('pending');

      await runFollowUps(t.ctx, '2026-12-04');
      expect(atFake(finished.provider_payment_id)).toBe('canceled');
      expect((await paymentsFor('follow-up'))[0]).toMatchObject({ status: 'canceled' });
      await nothingChargedLater();
      expect(await onlyFollowUp()).toMatchObject({ status: 'solved' });
    },
  );

  it('When Mollie cannot be reached for the cancel while settling, then the next follow-ups run cancels the pending retry', async () => {
    const { id } = await failedCharge(SEPA('AM04', 'Insufficient funds'));
    on('2026-12-04');
    await runFollowUps(t.ctx, '2026-12-04');
    const [retry] = await paymentsFor('follow-up');
    fake.unreachable('DELETE', /^\/v2\/payments\//);
    await settle(id, 'solved');
    expect(atFake(retry.provider_payment_id)).toBe('pending');

    fake.heal();
    t.clock.advance(60 * 60_000);
    await runFollowUps(t.ctx, '2026-12-04');
    expect(atFake(retry.provider_payment_id)).toBe('canceled');
    expect((await paymentsFor('follow-up'))[0]).toMatchObject({ status: 'canceled' });
    await nothingChargedLater();
  });

  it(
    'When the retry can no longer be canceled and is paid after all, then it is logged and left, and the follow-up stays as the ' +
      'merchant set it',
    async () => {
      const { id } = await failedCharge(SEPA('AM04', 'Insufficient funds'));
      on('2026-12-04');
      await runFollowUps(t.ctx, '2026-12-04');
      const [retry] = await paymentsFor('follow-up');
      fake.setPaymentStatus(retry.provider_payment_id, 'paid'); // Mollie's webhook has not come yet

      await settle(id, 'failed');
      expect(t.logs.lines.some((line) => line.includes('could not be canceled') && line.includes(retry.id))).toBe(true);
      await report(retry.provider_payment_id);
      expect((await paymentsFor('follow-up'))[0]).toMatchObject({ status: 'paid' });
      expect(await onlyFollowUp()).toMatchObject({ status: 'failed' });
      await nothingChargedLater();
    },
  );
});

import request from 'supertest';
import { randomBase62 } from '../../src/ids';
import { setProviderSettings } from '../../src/modules/accounts/providerSettings';
import { runBilling } from '../../src/modules/billing/run';
import { runFollowUps } from '../../src/modules/follow-ups/progress';
import { processDueWebhookCalls } from '../../src/modules/payments/webhookCalls';
import { cli } from '../cli/runInMemory';
import { TEST_MOLLIE_KEY } from '../support/mollieNock';
import { seedBillableSubscriptions } from '../support/billing';
import { TEST_DATABASES } from '../support/databases';
import { MollieFake } from '../../fakes/mollie/fake';
import { serveWithNock } from '../../fakes/mollie/nock';
import { useTestApp } from '../support/testApp';

type Details = Record<string, string>;
const SEPA = (code: string, reason: string): Details => ({ bankReasonCode: code, bankReason: reason });
const CARD = (code: string, message: string): Details => ({ failureReason: code, failureMessage: message });

/** Failed recurring charges followed up per the account's settings, against a Mollie fake whose outcomes the test decides. */
describe.each(TEST_DATABASES)('follow-ups of failed charges on %s', (kind) => {
  const t = useTestApp(kind, { perTest: true });
  let fake: MollieFake;
  let served: { stop(): void };
  let accountId: string;
  let accountName: string;
  let token: string;
  let publicRef: string;
  let subscriptionId: string;

  beforeEach(async () => {
    fake = new MollieFake('https://api.mollie.com');
    fake.now = () => t.clock.now().getTime();
    served = serveWithNock(fake);
    accountName = `Follow-ups ${randomBase62(8)}`;
    ({ accountId, token } = await t.newAccount(accountName));
    await setProviderSettings(t.ctx, accountName, { mollieApiKey: TEST_MOLLIE_KEY, allowLive: false });
    [subscriptionId] = (await seedBillableSubscriptions(t.ctx.db, accountId, 1)) as [string];
    for (const customer of await t.ctx.db('customers').where({ account_id: accountId })) {
      fake.customers.set(customer.provider_customer_id, { resource: 'customer', id: customer.provider_customer_id });
    }
    publicRef = (await t.ctx.db('accounts').where({ id: accountId }).first()).public_ref;
    expect((await cli(t.ctx, 'accounts', 'set-webhook', '--account', accountName, '--url', 'https://merchant.example/events')).code).toBe(
      0,
    );
  });
  afterEach(async () => {
    served.stop();
  });

  const on = (date: string) => t.clock.set(`${date}T07:00:00Z`);
  const followUps = async () => (await t.as(token).get('/api/v2/follow-ups')).body.data as Array<Record<string, unknown>>;
  const onlyFollowUp = async () => {
    const list = await followUps();
    expect(list).toHaveLength(1);
    return list[0] as Record<string, unknown> & { id: string };
  };
  const subscriptionStatus = async () => (await t.as(token).get(`/api/v2/subscriptions/${subscriptionId}`)).body.status;
  const events = async (prefix: string) =>
    (await t.ctx.db('outbound_events').where({ account_id: accountId }).orderBy('seq'))
      .map((row) => row.event as string)
      .filter((event) => event.startsWith(prefix));

  /** Mollie reports a new status: its webhook is called and processed. */
  async function report(providerPaymentId: string) {
    const res = await request(t.app).post(`/webhooks/mollie?account=${publicRef}`).type('form').send({ id: providerPaymentId });
    expect(res.status).toBe(200);
    await processDueWebhookCalls(t.ctx, new AbortController().signal);
    await t.ctx.background.idle();
  }

  /** The latest payment made for `purpose`, as Mollie and we know it. */
  async function latest(purpose: 'charge' | 'follow-up' | 'link') {
    const row = await t.ctx
      .db('payments')
      .where({ account_id: accountId, purpose })
      .orderBy('created_at', 'desc')
      .orderBy('seq', 'desc')
      .first();
    expect(row?.provider_payment_id).toBeTruthy();
    return row as { id: string; provider_payment_id: string; sequence_type: string; amount: number };
  }

  async function settle(purpose: 'charge' | 'follow-up' | 'link', status: string, details?: Details) {
    const payment = await latest(purpose);
    fake.setPaymentStatus(payment.provider_payment_id, status, details);
    await report(payment.provider_payment_id);
    return payment;
  }

  /** The charge of 1 December fails with these details. */
  async function failedCharge(details: Details) {
    on('2026-12-01');
    expect(await runBilling(t.ctx, '2026-12-01')).toMatchObject({ charged: 1 });
    return settle('charge', 'failed', details);
  }

  const setFollowUps = async (...args: string[]) =>
    expect((await cli(t.ctx, 'accounts', 'set-follow-ups', '--account', accountName, ...args)).code).toBe(0);

  it(
    'When a charge fails with AM04, then a follow-up with the bank reason retries it after 3 days, and a paid retry solves ' + 'it',
    async () => {
      const charge = await failedCharge(SEPA('AM04', 'Insufficient funds'));
      const followUp = await onlyFollowUp();
      expect(followUp).toMatchObject({
        type: 'both',
        status: 'pending',
        amount: '12.50',
        currency: 'EUR',
        reason: 'Insufficient funds',
        reason_code: 'AM04',
        provider_payment_id: charge.provider_payment_id,
        retries_done: 0,
        mails_sent: 0,
        next_retry_at: '2026-12-04',
        subscription: expect.objectContaining({ id: subscriptionId }),
        customer: expect.objectContaining({ email: 'customer0@example.nl' }),
      });
      // Mollie calls again for the same status: nothing new.
      await report(charge.provider_payment_id);
      expect(await followUps()).toHaveLength(1);
      expect((await t.ctx.db('subscription_charges').where({ account_id: accountId }).first()).status).toBe('failed');

      on('2026-12-03');
      expect(await runFollowUps(t.ctx, '2026-12-03')).toMatchObject({ retried: 0 });
      on('2026-12-04');
      expect((await cli(t.ctx, 'follow-ups', 'run', '--date', '2026-12-04')).out).toEqual([
        'follow-ups: 1 retried, 0 links sent, 0 failed, 0 errors',
      ]);
      const retry = await latest('follow-up');
      expect(retry).toMatchObject({ sequence_type: 'recurring', amount: 1250 });
      expect(await onlyFollowUp()).toMatchObject({ retries_done: 1, next_retry_at: null, status: 'pending' });
      // The job running again does not retry twice.
      await runFollowUps(t.ctx, '2026-12-04');
      expect(await t.ctx.db('payments').where({ account_id: accountId, purpose: 'follow-up' })).toHaveLength(1);

      await settle('follow-up', 'paid');
      expect(await onlyFollowUp()).toMatchObject({ status: 'solved', retries_done: 1 });
      expect(await events('follow_up.')).toEqual(['follow_up.created', 'follow_up.solved']);
      expect(await subscriptionStatus()).toBe('active');
    },
  );

  it(
    'When every retry fails (type retry), then the follow-up fails after the last one and the on-failure action pauses the ' +
      'subscription',
    async () => {
      await setFollowUps('--type', 'retry', '--max-retries', '2', '--retry-days', '2', '--on-failure', 'pause');
      await failedCharge(SEPA('AM04', 'Insufficient funds'));
      expect(await onlyFollowUp()).toMatchObject({ type: 'retry', next_retry_at: '2026-12-03' });
      on('2026-12-03');
      await runFollowUps(t.ctx, '2026-12-03');
      await settle('follow-up', 'failed', SEPA('AM04', 'Insufficient funds'));
      expect(await onlyFollowUp()).toMatchObject({ status: 'pending', retries_done: 1, next_retry_at: '2026-12-05' });
      on('2026-12-05');
      await runFollowUps(t.ctx, '2026-12-05');
      await settle('follow-up', 'failed', SEPA('AM04', 'Insufficient funds'));
      expect(await onlyFollowUp()).toMatchObject({ status: 'failed', retries_done: 2, mails_sent: 0, next_retry_at: null });
      expect(await subscriptionStatus()).toBe('paused');
      expect(await events('subscription.paused')).toHaveLength(1);
      expect(await events('follow_up.')).toEqual(['follow_up.created', 'follow_up.failed']);
      expect(await t.ctx.db('payment_links').where({ account_id: accountId })).toHaveLength(0);
    },
  );

  it(
    'When the code is not worth a retry, then the customer is e-mailed a payment link the day after, and paying it solves the ' +
      'follow-up',
    async () => {
      await setFollowUps('--type', 'retry');
      await failedCharge(SEPA('MS02', 'Refusal by the debtor'));
      expect(await onlyFollowUp()).toMatchObject({ reason_code: 'MS02', next_retry_at: '2026-12-02' });
      on('2026-12-02');
      expect(await runFollowUps(t.ctx, '2026-12-02')).toMatchObject({ retried: 0, linked: 1 });
      expect(await t.ctx.db('payments').where({ account_id: accountId, purpose: 'follow-up' })).toHaveLength(0);
      const [link] = await t.ctx.db('payment_links').where({ account_id: accountId });
      expect(link).toMatchObject({ type: 'payment', amount: 1250, status: 'open', expires_at: expect.stringMatching(/^2026-12-16/) });
      const [mail] = await t.ctx.db('outgoing_mails').where({ account_id: accountId });
      expect(mail).toMatchObject({
        recipient: 'customer0@example.nl',
        template: 'link-reminder',
        dedupe_key: `follow-up-link:${(await onlyFollowUp()).id}`,
      });
      expect(JSON.stringify(mail)).toContain(`/pay/${link.id}`);
      expect(await onlyFollowUp()).toMatchObject({ mails_sent: 1, next_retry_at: null, status: 'pending' });

      const pressed = await request(t.app).post(`/pay/${link.id}`).type('form').send({});
      expect(pressed.status).toBe(303);
      await settle('link', 'paid');
      expect(await onlyFollowUp()).toMatchObject({ status: 'solved' });
    },
  );

  it(
    'When a charge fails with AC04 (account closed), then the link is a takeover: paying it solves the follow-up, moves the ' +
      'subscription to the new mandate, revokes the old one at Mollie, and the next billing run charges the new mandate',
    async () => {
      const subscription = await t.ctx.db('subscriptions').where({ id: subscriptionId }).first();
      const oldMandate = subscription.provider_mandate_id as string;
      const customer = await t.ctx.db('customers').where({ id: subscription.customer_id }).first();
      fake.mandates.set(oldMandate, {
        resource: 'mandate',
        id: oldMandate,
        mode: 'test',
        status: 'valid',
        method: 'directdebit',
        details: { consumerName: 'A. de Vries', consumerAccount: 'NL91ABNA0417164300', consumerBic: null },
        mandateReference: 'REF-OLD',
        signatureDate: '2026-11-01',
        createdAt: '2026-11-01T00:00:00Z',
        customerId: customer.provider_customer_id,
      });
      await failedCharge(SEPA('AC04', 'Account closed'));
      // Never charged again on the closed account: the link the day after, whatever the account's type.
      expect(await onlyFollowUp()).toMatchObject({ type: 'link', reason_code: 'AC04', next_retry_at: '2026-12-02' });
      on('2026-12-02');
      expect(await runFollowUps(t.ctx, '2026-12-02')).toMatchObject({ retried: 0, linked: 1 });
      const [link] = await t.ctx.db('payment_links').where({ account_id: accountId });
      expect(link).toMatchObject({ type: 'mandate', amount: 1250, first_amount: 1250, customer_id: customer.id, status: 'open' });
      expect(await t.ctx.db('mandate_takeovers').where({ link_id: link.id }).first()).toMatchObject({
        customer_id: customer.id,
        subscription_ids: JSON.stringify([subscriptionId]),
      });
      expect(JSON.stringify(await t.ctx.db('outgoing_mails').where({ account_id: accountId }))).toContain(`/pay/${link.id}`);

      expect((await request(t.app).post(`/pay/${link.id}`).type('form').send({})).status).toBe(303);
      const first = await latest('link');
      expect(first).toMatchObject({ sequence_type: 'first', amount: 1250 });
      const newMandate = fake.payFirstPayment(first.provider_payment_id);
      await report(first.provider_payment_id);

      expect(await onlyFollowUp()).toMatchObject({ status: 'solved' });
      expect(await t.ctx.db('subscriptions').where({ id: subscriptionId }).first()).toMatchObject({
        status: 'active',
        provider_mandate_id: newMandate,
      });
      expect(fake.revokedMandates).toEqual([oldMandate]);
      expect(await t.ctx.db('mandates').where({ id: oldMandate }).first()).toMatchObject({ status: 'invalid' });
      expect(await events('subscription.updated')).toHaveLength(1);
      expect(await events('mandate.')).toEqual(['mandate.created', 'mandate.revoked']);

      on('2027-01-01');
      expect(await runBilling(t.ctx, '2027-01-01')).toMatchObject({ charged: 1 });
      const recurring = fake.requests.filter(
        (sent) => sent.method === 'POST' && sent.path.startsWith('/v2/payments') && sent.body.sequenceType === 'recurring',
      );
      expect(recurring.map((sent) => sent.body.mandateId)).toEqual([oldMandate, newMandate]);
    },
  );

  it(
    'When retries run out under type both, then the link follows; when the link expires unpaid, the follow-up fails and on-failure ' +
      'cancel cancels the subscription',
    async () => {
      await setFollowUps('--type', 'both', '--max-retries', '1', '--retry-days', '3', '--on-failure', 'cancel');
      await failedCharge(CARD('insufficient_funds', 'The card has insufficient funds available.'));
      on('2026-12-04');
      await runFollowUps(t.ctx, '2026-12-04');
      await settle('follow-up', 'failed', CARD('insufficient_funds', 'The card has insufficient funds available.'));
      expect(await onlyFollowUp()).toMatchObject({ status: 'pending', retries_done: 1, next_retry_at: '2026-12-05' });
      on('2026-12-05');
      expect(await runFollowUps(t.ctx, '2026-12-05')).toMatchObject({ linked: 1 });
      on('2026-12-20'); // the link was good until the 19th
      expect((await cli(t.ctx, 'jobs', 'run', 'remind-and-expire-links')).code).toBe(0);
      expect(await runFollowUps(t.ctx, '2026-12-20')).toMatchObject({ failed: 1 });
      expect(await onlyFollowUp()).toMatchObject({ status: 'failed', mails_sent: 1 });
      expect(await subscriptionStatus()).toBe('cancelled');
    },
  );

  it.each<[string, 'retry' | 'link', Details]>([
    ['SEPA AM04 (insufficient funds)', 'retry', SEPA('AM04', 'Insufficient funds')],
    ['SEPA MS03 (reason not specified)', 'retry', SEPA('MS03', 'Reason not specified')],
    ['SEPA AC01 (wrong account number)', 'link', SEPA('AC01', 'Account identifier incorrect')],
    ['SEPA MD01 (no mandate)', 'link', SEPA('MD01', 'No mandate')],
    ['SEPA MS02 (refused by the debtor)', 'link', SEPA('MS02', 'Refusal by the debtor')],
    ['card insufficient_funds', 'retry', CARD('insufficient_funds', 'The card has insufficient funds available.')],
    ['card card_declined', 'retry', CARD('card_declined', 'The card was declined.')],
    ['card card_expired', 'link', CARD('card_expired', 'The card has expired.')],
  ])('When a charge fails with %s, then the first step is a %s', async (_, step, details) => {
    await failedCharge(details);
    const followUp = await onlyFollowUp();
    expect(followUp).toMatchObject({
      reason_code: details.bankReasonCode ?? details.failureReason,
      reason: details.bankReason ?? details.failureMessage,
      next_retry_at: step === 'retry' ? '2026-12-04' : '2026-12-02',
    });
  });

  it('When type is link, then even a code worth retrying gets the link the day after and no retry', async () => {
    await setFollowUps('--type', 'link');
    await failedCharge(SEPA('AM04', 'Insufficient funds'));
    expect(await onlyFollowUp()).toMatchObject({ type: 'link', next_retry_at: '2026-12-02' });
    on('2026-12-02');
    expect(await runFollowUps(t.ctx, '2026-12-02')).toMatchObject({ retried: 0, linked: 1 });
  });

  it('When a paid charge is charged back (MD06), then a chargeback follow-up is opened once, however often Mollie reports it', async () => {
    on('2026-12-01');
    await runBilling(t.ctx, '2026-12-01');
    const paid = await settle('charge', 'paid');
    expect(await followUps()).toHaveLength(0);
    fake.chargeBack(paid.provider_payment_id);
    await report(paid.provider_payment_id);
    await report(paid.provider_payment_id);
    expect(await onlyFollowUp()).toMatchObject({ reason_code: 'MD06', amount: '12.50', status: 'pending', next_retry_at: '2026-12-02' });
  });

  it('When the merchant sets a follow-up solved or failed by hand, then it stays so; another account cannot see or change it', async () => {
    await failedCharge(SEPA('AM04', 'Insufficient funds'));
    const { id } = await onlyFollowUp();
    const invalid = await t.as(token).put(`/api/v2/follow-ups/${id}`, { status: 'pending' });
    expect(invalid.status).toBe(422);
    expect(invalid.body.fields).toHaveProperty('status');
    const other = await t.newAccount();
    expect((await t.as(other.token).put(`/api/v2/follow-ups/${id}`, { status: 'solved' })).status).toBe(404);
    expect((await t.as(other.token).get(`/api/v2/follow-ups/${id}`)).status).toBe(404);

    const solved = await t.as(token).put(`/api/v2/follow-ups/${id}`, { status: 'solved' });
    expect(solved.status).toBe(200);
    expect(solved.body).toMatchObject({ id, status: 'solved', next_retry_at: null });
    expect((await t.as(token).put(`/api/v2/follow-ups/${id}`, { status: 'solved' })).status).toBe(200);
    const conflict = await t.as(token).put(`/api/v2/follow-ups/${id}`, { status: 'failed' });
    expect(conflict.status).toBe(409);
    on('2026-12-04');
    expect(await runFollowUps(t.ctx, '2026-12-04')).toMatchObject({ retried: 0 });
    expect(await subscriptionStatus()).toBe('active');
  });
});

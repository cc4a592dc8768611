import request from 'supertest';
import { randomBase62 } from '../../src/ids';
import { refreshMandates } from '../../src/jobs/refreshMandates';
import { setProviderSettings } from '../../src/modules/accounts/providerSettings';
import { runBilling } from '../../src/modules/billing/run';
import { startMandateTakeover } from '../../src/modules/takeovers/service';
import { processDueWebhookCalls } from '../../src/modules/payments/webhookCalls';
import type { Account } from '../../src/modules/accounts/account';
import { TEST_MOLLIE_KEY } from '../support/mollieNock';
import { seedBillableSubscriptions } from '../support/billing';
import { TEST_DATABASES } from '../support/databases';
import { refuseUpdatesOf } from '../support/rowWriteFault';
import { MollieFake } from '../../fakes/mollie/fake';
import { serveWithNock } from '../../fakes/mollie/nock';
import { useTestApp } from '../support/testApp';

/**
 * A takeover against a Mollie fake that loses answers, and a settle transaction that dies halfway:
 * whatever fails, the subscription moves to the new mandate exactly once, the old mandate is revoked
 * (again is harmless, told once), and the next charge goes to the new mandate.
 */
describe.each(TEST_DATABASES)('mandate takeover faults on %s', (kind) => {
  const t = useTestApp(kind, { perTest: true, audited: true });
  let fake: MollieFake;
  let served: { stop(): void };
  let account: Account;
  let publicRef: string;
  let subscriptionId: string;
  let customerId: string;
  let oldMandate: string;

  beforeEach(async () => {
    fake = new MollieFake('https://api.mollie.com');
    fake.now = () => t.clock.now().getTime();
    served = serveWithNock(fake);
    const name = `Takeover faults ${randomBase62(8)}`;
    const { accountId } = await t.newAccount(name);
    await setProviderSettings(t.ctx, name, { mollieApiKey: TEST_MOLLIE_KEY, allowLive: false });
    await t.ctx.db('accounts').where({ id: accountId }).update({ events_url: 'https://merchant.example/events' });
    account = await t.ctx.db('accounts').where({ id: accountId }).first();
    publicRef = account.public_ref;
    [subscriptionId] = (await seedBillableSubscriptions(t.ctx.db, accountId, 1)) as [string];
    const subscription = await t.ctx.db('subscriptions').where({ id: subscriptionId }).first();
    customerId = subscription.customer_id;
    oldMandate = subscription.provider_mandate_id;
    const customer = await t.ctx.db('customers').where({ id: customerId }).first();
    fake.customers.set(customer.provider_customer_id, { resource: 'customer', id: customer.provider_customer_id });
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
  });
  afterEach(async () => {
    served.stop();
  });

  const start = () =>
    startMandateTakeover(t.ctx, account, {
      customerId,
      subscriptionIds: null,
      amountCents: null,
      description: 'Change payment method',
      redirectUrl: null,
      locale: null,
    });
  const press = (linkId: string) => request(t.app).post(`/pay/${linkId}`).type('form').send({});
  const linkPayments = (linkId: string) => t.ctx.db('payments').where({ account_id: account.id, purpose: 'link', purpose_id: linkId });

  async function report(providerPaymentId: string) {
    const res = await request(t.app).post(`/webhooks/mollie?account=${publicRef}`).type('form').send({ id: providerPaymentId });
    expect(res.status).toBe(200);
    await processDueWebhookCalls(t.ctx, new AbortController().signal);
    await t.ctx.background.idle();
  }

  const events = async (name: string) => t.ctx.db('outbound_events').where({ account_id: account.id, event: name });

  /** The next charge (1 December) goes to the new mandate, and the old one is never charged. */
  async function nextChargeUses(mandateId: string) {
    t.clock.set('2026-12-01T07:00:00Z');
    expect(await runBilling(t.ctx, '2026-12-01')).toMatchObject({ charged: 1 });
    const recurring = fake.requests.filter(
      (sent) => sent.method === 'POST' && sent.path.startsWith('/v2/payments') && sent.body.sequenceType === 'recurring',
    );
    expect(recurring.map((sent) => sent.body.mandateId)).toEqual([mandateId]);
  }

  it(
    'When the answers to the first payment and to the revocation are lost, then one payment is made, the subscription moves ' +
      'once, and the job revokes the old mandate again — harmless, told once',
    async () => {
      const { linkId } = await start();
      fake.loseAnswers('POST', /^\/v2\/payments/, 1);
      expect((await press(linkId)).status).toBe(502);
      expect((await press(linkId)).status).toBe(303);
      const [payment] = await linkPayments(linkId);
      expect(await linkPayments(linkId)).toHaveLength(1);
      expect(fake.paymentsWithReference(payment.id)).toHaveLength(1);

      fake.loseAnswers('DELETE', /^\/v2\/customers\/[^/]+\/mandates\//, 1);
      const newMandate = fake.payFirstPayment(payment.provider_payment_id);
      await report(payment.provider_payment_id);
      expect(await t.ctx.db('subscriptions').where({ id: subscriptionId }).first()).toMatchObject({ provider_mandate_id: newMandate });
      // Revoked at Mollie, but we could not know: still due here, with the error.
      expect(fake.revokedMandates).toEqual([oldMandate]);
      const due = await t.ctx.db('mandate_revocations').where({ mandate_id: oldMandate }).first();
      expect(due).toMatchObject({ revoked_at: null, attempts: 1 });
      expect(await t.ctx.db('mandates').where({ id: oldMandate }).first()).toMatchObject({ revoked_at: null });

      await refreshMandates(t.ctx, new AbortController().signal);
      // Asked twice with the same key: Mollie answers the second from the first, revoked once.
      const revokes = fake.requests.filter((sent) => sent.method === 'DELETE' && sent.path.includes(`/mandates/${oldMandate}`));
      expect(revokes.map((sent) => sent.idempotencyKey)).toEqual([`revoke-${oldMandate}`, `revoke-${oldMandate}`]);
      expect(fake.revokedMandates).toEqual([oldMandate]);
      expect(await t.ctx.db('mandates').where({ id: oldMandate }).first()).toMatchObject({ status: 'invalid' });
      expect(await t.ctx.db('mandate_revocations').where({ mandate_id: oldMandate }).first()).not.toMatchObject({ revoked_at: null });
      expect(await events('mandate.revoked')).toHaveLength(1);
      expect(await events('subscription.updated')).toHaveLength(1);
      await nextChargeUses(newMandate);
    },
  );

  it(
    'When the settle transaction dies halfway (the subscription cannot be written), then nothing of it stays; the next report ' +
      'moves the subscription once and revokes the old mandate',
    async () => {
      const { linkId } = await start();
      expect((await press(linkId)).status).toBe(303);
      const [payment] = await linkPayments(linkId);
      const newMandate = fake.payFirstPayment(payment.provider_payment_id);

      const undo = await refuseUpdatesOf(t.ctx.db, kind, 'subscriptions', subscriptionId);
      try {
        await request(t.app).post(`/webhooks/mollie?account=${publicRef}`).type('form').send({ id: payment.provider_payment_id });
        await processDueWebhookCalls(t.ctx, new AbortController().signal);
        await t.ctx.background.idle();
      } finally {
        await undo();
      }
      // Rolled back as one: the payment is not paid here, no mandate recorded, nothing taken over or due.
      expect(await t.ctx.db('payments').where({ id: payment.id }).first()).toMatchObject({ status: 'open' });
      expect(await t.ctx.db('mandates').where({ id: newMandate })).toEqual([]);
      expect(await t.ctx.db('mandate_takeovers').where({ link_id: linkId }).first()).toMatchObject({ taken_over_at: null });
      expect(await t.ctx.db('mandate_revocations')).toEqual([]);
      expect(fake.revokedMandates).toEqual([]);

      await report(payment.provider_payment_id);
      expect(await t.ctx.db('payments').where({ id: payment.id }).first()).toMatchObject({ status: 'paid' });
      expect(await t.ctx.db('subscriptions').where({ id: subscriptionId }).first()).toMatchObject({ provider_mandate_id: newMandate });
      expect(fake.revokedMandates).toEqual([oldMandate]);
      expect(await events('subscription.updated')).toHaveLength(1);
      expect(await events('mandate.revoked')).toHaveLength(1);
      await nextChargeUses(newMandate);
    },
  );
});

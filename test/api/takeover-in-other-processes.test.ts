import request from 'supertest';
import { createContext } from '../../src/bootstrap';
import type { AppContext } from '../../src/context';
import { createLogger } from '../../src/logger';
import type { Account } from '../../src/modules/accounts/account';
import { recordWebhookCall } from '../../src/modules/payments/webhookCalls';
import { startMandateTakeover } from '../../src/modules/takeovers/service';
import { cli } from '../cli/runInMemory';
import { subscribe } from '../support/billing';
import { TEST_DATABASES } from '../support/databases';
import { accountAtMollieFake, type MollieAccount } from '../support/mollieAccount';
import { useTestApp } from '../support/testApp';

/**
 * The takeover is reached through hooks that bootstrap wires (a paid mandate link's fulfilment, a valid mandate's
 * phases). Whatever process does the work must have them: here the work is done by a second context made the way
 * the CLI and the job scheduler make theirs (createContext), not by the test app that took the payment. A process
 * without the link's fulfilment would fail the settlement forever; one without the phases would leave the
 * subscription on a mandate nobody revokes, or activate drafts while the takeover still waits.
 */
describe.each(TEST_DATABASES)('a takeover carried out by another process, on %s', (kind) => {
  const t = useTestApp(kind, { perTest: true });
  let mollie: MollieAccount;
  let account: Account;
  let other: AppContext;

  beforeEach(async () => {
    t.clock.set('2026-11-21T10:00:00Z');
    mollie = await accountAtMollieFake(t, 'Other process');
    await t.ctx.db('accounts').where({ id: mollie.accountId }).update({ events_url: 'https://merchant.example/events' });
    account = (await t.ctx.db('accounts').where({ id: mollie.accountId }).first()) as Account;
    ({ ctx: other } = await createContext(t.ctx.config, createLogger('error'), t.clock));
  });
  afterEach(async () => {
    await Promise.all([t.ctx.background.idle(), other.background.idle()]);
    await Promise.all([other.db.destroy(), other.rateLimits.close()]);
    mollie.stop();
  });

  const subscriptionRow = (id: string) => t.ctx.db('subscriptions').where({ account_id: mollie.accountId, id }).first();
  const methodChangedMails = (linkId: string) =>
    t.ctx.db('outgoing_mails').where({ account_id: mollie.accountId, dedupe_key: `portal-method-changed:${linkId}` });

  const startTakeover = (customerId: string) =>
    startMandateTakeover(t.ctx, account, {
      customerId,
      subscriptionIds: null,
      amountCents: null,
      description: 'Change payment method',
      redirectUrl: null,
      locale: null,
      requestedVia: 'portal',
    });

  it(
    "When a takeover link's payment is settled by another process (its webhook call processed by the job), then the " +
      'subscription moves to the new mandate once, the old one is revoked, and the customer is told once',
    async () => {
      const { customerId, mandateId: old, subscriptionId } = await subscribe(t, mollie.token);
      const { linkId } = await startTakeover(customerId);
      expect((await request(t.app).post(`/pay/${linkId}`).type('form').send({})).status).toBe(303);
      const payment = await t.ctx.db('payments').where({ account_id: mollie.accountId, purpose: 'link', purpose_id: linkId }).first();
      const newMandate = mollie.fake.payFirstPayment(payment.provider_payment_id);
      mollie.fake.setMandateStatus(newMandate, 'valid');

      // Mollie's call is kept by one instance and processed by another's job, after the first attempt's grace.
      await recordWebhookCall(other, 'mollie', mollie.accountId, payment.provider_payment_id);
      t.clock.advance(2 * 60 * 1000);
      const run = await cli(other, 'jobs', 'run', 'process-provider-webhooks');
      expect(run.code).toBe(0);
      await other.background.idle();

      expect(await t.ctx.db('payments').where({ id: payment.id }).first()).toMatchObject({ status: 'paid' });
      expect(await t.ctx.db('payment_links').where({ id: linkId }).first()).toMatchObject({ status: 'paid' });
      expect(await subscriptionRow(subscriptionId)).toMatchObject({ provider_mandate_id: newMandate, status: 'active' });
      expect(mollie.fake.revokedMandates).toEqual([old]);
      expect(await methodChangedMails(linkId)).toHaveLength(1);

      // The same call again, in the test app this time: nothing more moves, nothing is revoked or mailed twice.
      await mollie.report(payment.provider_payment_id);
      expect(mollie.fake.revokedMandates).toEqual([old]);
      expect(await methodChangedMails(linkId)).toHaveLength(1);
      const updated = await t.ctx
        .db('outbound_events')
        .where({ account_id: mollie.accountId, resource_id: subscriptionId, event: 'subscription.updated' });
      expect(updated).toHaveLength(1);
    },
  );

  it(
    "When another process's refresh-mandates run finds a takeover's pending mandate valid, then the waiting takeover " +
      'moves first and the old mandate is revoked, then the draft on the new mandate becomes active',
    async () => {
      const { customerId, mandateId: old, subscriptionId } = await subscribe(t, mollie.token);
      const { linkId } = await startTakeover(customerId);
      const newMandate = await mollie.payLink(linkId, 'pending');
      await t.ctx.background.idle();
      expect(await subscriptionRow(subscriptionId)).toMatchObject({ provider_mandate_id: old });

      // A second subscription made on the new mandate while it is pending: a draft until the mandate is valid.
      const draft = await t.as(mollie.token).post('/api/v2/subscriptions', {
        name: 'Tea box',
        customer_id: customerId,
        provider_profile_id: 'pfl_test123456',
        provider_mandate_id: newMandate,
        start_date: '2026-12-01',
        rules: [{ amount: 7.5, interval: 'month', interval_amount: 1 }],
      });
      expect(draft.status).toBe(201);
      expect(draft.body.status).toBe('draft');

      mollie.fake.setMandateStatus(newMandate, 'valid');
      t.clock.advance(60 * 60 * 1000);
      const run = await cli(other, 'jobs', 'run', 'refresh-mandates');
      expect(run.code).toBe(0);
      expect(run.out).toEqual([expect.not.stringMatching(/ [1-9]\d* failed/)]);
      await other.background.idle();

      expect(await subscriptionRow(subscriptionId)).toMatchObject({ provider_mandate_id: newMandate, status: 'active' });
      expect(await subscriptionRow(draft.body.id as string)).toMatchObject({ provider_mandate_id: newMandate, status: 'active' });
      expect(mollie.fake.revokedMandates).toEqual([old]);
      expect(await t.ctx.db('mandates').where({ id: old }).first()).toMatchObject({ status: 'invalid' });
      expect(await methodChangedMails(linkId)).toHaveLength(1);

      // A later run finds nothing waiting: nothing moves or is revoked again.
      t.clock.advance(60 * 60 * 1000);
      expect((await cli(other, 'jobs', 'run', 'refresh-mandates')).code).toBe(0);
      await other.background.idle();
      expect(mollie.fake.revokedMandates).toEqual([old]);
      expect(await methodChangedMails(linkId)).toHaveLength(1);
    },
  );
});

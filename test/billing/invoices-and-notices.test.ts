import request from 'supertest';
import { sendPreNotifications } from '../../src/modules/billing/preNotification';
import { runBilling } from '../../src/modules/billing/run';
import { processDueWebhookCalls } from '../../src/modules/payments/webhookCalls';
import { cli } from '../cli/runInMemory';
import { subscribe } from '../support/billing';
import { TEST_DATABASES } from '../support/databases';
import { useTestApp } from '../support/testApp';

describe.each(TEST_DATABASES)('invoices, events and pre-notifications of billing on %s', (kind) => {
  const t = useTestApp(kind, { perTest: true });
  let token: string;
  let accountId: string;
  let accountName: string;

  beforeEach(async () => {
    accountName = `Billing extras ${Math.random().toString(36).slice(2, 8)}`;
    ({ token, accountId } = await t.newAccount(accountName));
  });

  /** The sandbox settles a recurring charge when it is next looked at: its webhook does that. */
  async function settleCharges() {
    const account = await t.ctx.db('accounts').where({ id: accountId }).first();
    for (const payment of await t.ctx.db('payments').where({ account_id: accountId, purpose: 'charge' })) {
      await request(t.app).post(`/webhooks/mollie?account=${account.public_ref}`).type('form').send({ id: payment.provider_payment_id });
    }
    await processDueWebhookCalls(t.ctx, new AbortController().signal);
    await t.ctx.background.idle();
  }

  it('When a charge with invoice rules is paid, then one invoice record lists its lines with VAT per line and totals', async () => {
    const { subscriptionId } = await subscribe(t, token, {
      rules: [
        {
          amount: 15.5,
          interval: 'month',
          interval_amount: 1,
          invoice_rules: [
            { quantity: 2, description: 'Coffee beans 500 g', amount: 6.25, vat: '9', ledger_account_id: '8000' },
            { quantity: 1, description: 'Delivery', amount: 4.13, vat: '21' },
            { quantity: 1, description: 'Loyalty discount', amount: -1.5, vat: '21' },
          ],
        },
      ],
    });
    t.clock.set('2026-12-01T06:00:00Z');
    await runBilling(t.ctx, '2026-12-01');
    await settleCharges();
    await settleCharges(); // Mollie may report the same status again: still one invoice
    const res = await t.as(token).get(`/api/v2/subscriptions/${subscriptionId}/invoices`);
    expect(res.status).toBe(200);
    expect(res.body.meta.total).toBe(1);
    const [payment] = await t.ctx.db('payments').where({ account_id: accountId, purpose: 'charge' });
    expect(res.body.data[0]).toEqual({
      id: expect.stringMatching(/^ivc_/),
      subscription_id: subscriptionId,
      payment_id: payment.id,
      currency: 'EUR',
      lines: [
        {
          quantity: 2,
          description: 'Coffee beans 500 g',
          amount: '6.25',
          vat: '9',
          ledger_account_id: '8000',
          total_excluding_vat: '12.50',
          total_vat: '1.13',
          total_including_vat: '13.63',
          period: { start: '2026-12-01', end: '2026-12-31' },
        },
        {
          quantity: 1,
          description: 'Delivery',
          amount: '4.13',
          vat: '21',
          ledger_account_id: null,
          total_excluding_vat: '4.13',
          total_vat: '0.87',
          total_including_vat: '5.00',
          period: { start: '2026-12-01', end: '2026-12-31' },
        },
        {
          quantity: 1,
          description: 'Loyalty discount',
          amount: '-1.50',
          vat: '21',
          ledger_account_id: null,
          total_excluding_vat: '-1.50',
          total_vat: '-0.32',
          total_including_vat: '-1.82',
          period: { start: '2026-12-01', end: '2026-12-31' },
        },
      ],
      total_excluding_vat: '15.13',
      total_vat: '1.68',
      total_including_vat: '16.81',
      workflow_id: null,
      docstyle_id: null,
      bookkeeping_status: 'none',
      created_at: expect.any(String),
    });
  });

  it('When a paid charge has no invoice rules, then its invoice is one line of the amount charged, not sent to bookkeeping', async () => {
    const { subscriptionId } = await subscribe(t, token);
    await runBilling(t.ctx, '2026-12-01');
    await settleCharges();
    expect((await t.ctx.db('subscription_charges').where({ account_id: accountId }).first()).status).toBe('paid');
    const res = await t.as(token).get(`/api/v2/subscriptions/${subscriptionId}/invoices`);
    expect(res.body.meta.total).toBe(1);
    expect(res.body.data[0]).toMatchObject({ total_including_vat: '12.50', bookkeeping_status: 'none' });
  });

  it(
    'When the account has an events endpoint, then charges, payments of every purpose and subscription changes are queued to it, ' +
      'signed',
    async () => {
      expect((await cli(t.ctx, 'accounts', 'set-webhook', '--account', accountName, '--url', 'https://merchant.example/events')).code).toBe(
        0,
      );
      const { subscriptionId } = await subscribe(t, token);
      await runBilling(t.ctx, '2026-12-01');
      await settleCharges();
      await t.as(token).post(`/api/v2/subscriptions/${subscriptionId}/pause`);
      await t.as(token).post(`/api/v2/subscriptions/${subscriptionId}/resume`);
      await t.as(token).delete(`/api/v2/subscriptions/${subscriptionId}`);
      const rows = await t.ctx
        .db('outbound_events')
        .where({ account_id: accountId, url: 'https://merchant.example/events' })
        .orderBy('seq');
      expect(rows.map((row) => row.event)).toEqual([
        'mandate.created', // the mandate subscribe() makes through the API
        'payment.pending',
        'subscription.charged',
        'payment.paid',
        'subscription.paused',
        'subscription.resumed',
        'subscription.cancelled',
      ]);
      const charged = rows.find((row) => row.event === 'subscription.charged');
      expect(JSON.parse(charged.payload)).toMatchObject({
        id: subscriptionId,
        event: 'subscription.charged',
        status: 'active',
        charge_number: 1,
        due_date: '2026-12-01',
      });
      // The payment events of the charge carry the payment, the subscription events the subscription.
      expect(rows.filter((row) => row.event.startsWith('payment.')).every((row) => row.payment_id !== null)).toBe(true);
      expect(
        rows
          .filter((row) => row.event.startsWith('subscription.'))
          .every((row) => row.payment_id === null && row.resource_id === subscriptionId),
      ).toBe(true);
    },
  );

  it(
    'When pre-notification is set, then the customer of a direct debit is e-mailed its date and amount that many days before, ' + 'once',
    async () => {
      expect((await cli(t.ctx, 'accounts', 'set-pre-notification', '--account', accountName, '--days', '5')).code).toBe(0);
      const profile = ['--contact-email', 'hallo@koffieclub.nl', '--creditor-id', 'DE98ZZZ09999999999'];
      expect((await cli(t.ctx, 'accounts', 'set-profile', '--account', accountName, ...profile)).code).toBe(0);
      await subscribe(t, token, { startDate: '2026-12-01' });
      expect(await sendPreNotifications(t.ctx, '2026-11-25')).toBe(0); // six days before
      expect(await sendPreNotifications(t.ctx, '2026-11-26')).toBe(1);
      expect(await sendPreNotifications(t.ctx, '2026-11-27')).toBe(0);
      const [mail] = await t.ctx.db('outgoing_mails').where({ account_id: accountId });
      expect(mail).toMatchObject({ template: 'charge-notice', recipient: 'anna@example.nl' });
      expect(mail.text_body).toContain('will debit €12.50 from your account on or shortly after December 1, 2026 for "Coffee box"');
      expect(mail.text_body).toContain('Mandate reference: ');
      expect(mail.text_body).toContain('Creditor identifier: DE98ZZZ09999999999.');
      expect(mail.text_body).toContain(`Questions? Contact ${accountName} at hallo@koffieclub.nl.`);
      expect(mail.text_body).toContain(`Manage your subscription: ${t.ctx.config.publicUrl}/portal`);
      expect((await cli(t.ctx, 'accounts', 'set-pre-notification', '--account', accountName, '--none')).code).toBe(0);
      await t.ctx.db('subscriptions').where({ account_id: accountId }).update({ next_payment_at: '2027-01-01' });
      expect(await sendPreNotifications(t.ctx, '2026-12-28')).toBe(0);
    },
  );
});

import request from 'supertest';
import type { Account } from '../../src/modules/accounts/account';
import { startPayment } from '../../src/modules/payments/pipeline';
import type { PaymentRow } from '../../src/modules/payments/repository';
import { completeCheckout } from '../../src/providers/sandbox/checkoutCompletion';
import type { SandboxPaymentRow } from '../../src/providers/sandbox/rows';
import { TEST_DATABASES } from '../support/databases';
import { useTestApp } from '../support/testApp';

/**
 * Paying a link's payment fulfils the link through the one settle hook: the link is paid, the payer
 * becomes its customer, a subscription link gets its subscription on the new mandate — once, however
 * often or however concurrently the payment is reported paid. Runs on the sandbox provider; the clock
 * stands at 2026-11-21 10:00 UTC.
 */
describe.each(TEST_DATABASES)('fulfilling payment links on %s', (kind) => {
  const t = useTestApp(kind);
  let token: string;
  let account: Account;

  beforeAll(async () => {
    const created = await t.newAccount();
    token = created.token;
    account = await t.ctx.db('accounts').where({ id: created.accountId }).first();
  });
  afterEach(() => t.ctx.background.idle());

  async function newCustomer() {
    const res = await t.as(token).post('/api/v2/customers', { first_name: 'Anna', last_name: 'de Vries', email: 'anna@example.nl' });
    expect(res.status).toBe(201);
    return { id: res.body.id as string, providerCustomerId: res.body.provider_customer_id as string };
  }

  async function newLink(body: Record<string, unknown>) {
    const res = await t.as(token).post('/api/v2/links', body);
    expect(res.status).toBe(201);
    return res.body as { id: string; type: 'payment' | 'subscription' | 'mandate'; first_amount: string | null; amount: string };
  }

  /** What the hosted page does when the buyer presses pay: a payment for the link through the pipeline. */
  async function payment(
    link: { id: string; type: string; amount: string; first_amount: string | null },
    customer: { id: string; providerCustomerId: string },
  ) {
    return startPayment(t.ctx, account, {
      purpose: 'link',
      purposeId: link.id,
      customer,
      sequenceType: link.type === 'payment' ? 'oneoff' : 'first',
      mandateId: null,
      amount: Math.round(Number(link.first_amount ?? link.amount) * 100),
      currency: 'EUR',
      description: 'link payment',
      method: null,
      redirectUrl: 'https://shop.example/return',
      webhookUrl: null,
      profileId: null,
    });
  }

  /** The buyer on the sandbox checkout: the provider's status changes and is processed like a webhook. */
  const payAtCheckout = (row: PaymentRow, status = 'paid') =>
    request(t.app).post(`/sandbox/checkout/${row.provider_payment_id}`).type('form').send({ status });

  /** The provider marks it paid, without telling us yet. */
  async function paidAtProviderOnly(row: PaymentRow) {
    const remote = (await t.ctx.db('sandbox_payments').where({ id: row.provider_payment_id }).first()) as SandboxPaymentRow;
    expect(await completeCheckout(t.ctx.db, remote, 'paid', t.ctx.clock.now())).toBe(true);
  }

  const webhook = (row: PaymentRow) =>
    request(t.app).post(`/webhooks/mollie?account=${account.public_ref}`).type('form').send({ id: row.provider_payment_id });

  const mandatesOf = (customerId: string) => t.ctx.db('mandates').where({ account_id: account.id, customer_id: customerId });
  const subscriptionsOf = (customerId: string) => t.ctx.db('subscriptions').where({ account_id: account.id, customer_id: customerId });

  it(
    'When a subscription link’s first payment is paid, then the link is paid and has an active subscription on the valid mandate, ' +
      'starting after the trial',
    async () => {
      const customer = await newCustomer();
      const link = await newLink({
        type: 'subscription',
        description: 'Coffee club',
        first_amount: 5,
        rules: [{ amount: 9.95, interval: 'month', interval_amount: 1, times: 12 }],
        trial_interval: '14 days',
      });
      const row = await payment(link, customer);
      expect((await payAtCheckout(row)).status).toBe(303);

      const res = await t.as(token).get(`/api/v2/links/${link.id}`);
      expect(res.body).toMatchObject({
        status: 'paid',
        customer: { id: customer.id },
        subscription: {
          name: 'Coffee club',
          status: 'active',
          start_date: '2026-12-05',
          next_payment_at: '2026-12-05',
          next_amount: '9.95',
        },
      });
      const subscription = res.body.subscription as { provider_mandate_id: string };
      expect(await mandatesOf(customer.id)).toEqual([expect.objectContaining({ id: subscription.provider_mandate_id, status: 'valid' })]);
    },
  );

  it('When a subscription link without a trial is paid, then its regular charges start one interval after the first payment', async () => {
    const customer = await newCustomer();
    const link = await newLink({ type: 'subscription', description: 'Box', amount: 20, interval: 'month' });
    await payAtCheckout(await payment(link, customer));
    const [subscription] = await subscriptionsOf(customer.id);
    // The first payment paid the first period: it is charge 1, and the subscription starts on its day.
    expect(subscription).toMatchObject({
      status: 'active',
      start_date: '2026-11-21',
      next_charge_number: 2,
      next_payment_at: '2026-12-21',
      next_amount: 2000,
    });
  });

  it(
    'When two payments of one link are paid at once, then one subscription is made and the later payment is logged for a ' + 'refund',
    async () => {
      const customer = await newCustomer();
      const link = await newLink({ type: 'subscription', description: 'Twice', amount: 10, interval: 'month' });
      const [first, second] = await Promise.all([payment(link, customer), payment(link, customer)]);
      if (!first || !second) throw new Error('two payments expected');
      const answers = await Promise.all([payAtCheckout(first), payAtCheckout(second)]);
      expect(answers.map((answer) => answer.status)).toEqual([303, 303]);

      expect(await subscriptionsOf(customer.id)).toHaveLength(1);
      const fulfilments = await t.ctx.db('link_fulfilments').where({ link_id: link.id });
      expect(fulfilments).toHaveLength(1);
      const paymentStatuses = await t.ctx.db('payments').whereIn('id', [first.id, second.id]).pluck('status');
      expect(paymentStatuses).toEqual(['paid', 'paid']);
      const later = fulfilments[0].payment_id === first.id ? second.id : first.id;
      const warnings = t.logs.lines.map((line) => JSON.parse(line) as { message: string; payment?: string });
      expect(warnings).toContainEqual(
        expect.objectContaining({ message: 'payment link paid more than once; refund the later payment', payment: later }),
      );
    },
  );

  it('When the paid webhook arrives twice at once, then the link is fulfilled once', async () => {
    const customer = await newCustomer();
    const link = await newLink({ type: 'subscription', description: 'Duplicate webhook', amount: 10, interval: 'month' });
    const row = await payment(link, customer);
    await paidAtProviderOnly(row);
    const answers = await Promise.all([webhook(row), webhook(row), webhook(row)]);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
    await t.ctx.background.idle();

    expect(await subscriptionsOf(customer.id)).toHaveLength(1);
    expect(await t.ctx.db('link_fulfilments').where({ link_id: link.id })).toHaveLength(1);
    expect((await t.as(token).get(`/api/v2/links/${link.id}`)).body.status).toBe('paid');
  });

  it('When a mandate link is paid, then the link is paid with the customer and the mandate, and no subscription', async () => {
    const customer = await newCustomer();
    const link = await newLink({ type: 'mandate', description: 'Authorise' });
    await payAtCheckout(await payment(link, customer));
    const res = await t.as(token).get(`/api/v2/links/${link.id}`);
    expect(res.body).toMatchObject({ status: 'paid', customer: { id: customer.id }, subscription: null });
    expect(await mandatesOf(customer.id)).toEqual([expect.objectContaining({ status: 'valid' })]);
    expect(await subscriptionsOf(customer.id)).toHaveLength(0);
  });

  it('When a payment link is paid, then it is paid; when its payment fails, then it stays open to try again', async () => {
    const customer = await newCustomer();
    const failing = await newLink({ type: 'payment', description: 'Fails', amount: 12 });
    await payAtCheckout(await payment(failing, customer), 'failed');
    expect((await t.as(token).get(`/api/v2/links/${failing.id}`)).body).toMatchObject({ status: 'open', active: true, customer: null });

    const paying = await newLink({ type: 'payment', description: 'Pays', amount: 12 });
    await payAtCheckout(await payment(paying, customer));
    expect((await t.as(token).get(`/api/v2/links/${paying.id}`)).body).toMatchObject({ status: 'paid', customer: { id: customer.id } });
  });

  it(
    'When a link was cancelled while its payment was at the checkout and the payment is then paid, then the money is honoured: the ' +
      'link is paid',
    async () => {
      const customer = await newCustomer();
      const link = await newLink({ type: 'subscription', description: 'Late pay', amount: 10, interval: 'month' });
      const row = await payment(link, customer);
      await t.as(token).delete(`/api/v2/links/${link.id}`);
      await payAtCheckout(row);
      expect((await t.as(token).get(`/api/v2/links/${link.id}`)).body).toMatchObject({
        status: 'paid',
        active: false,
        subscription: { status: 'active' },
      });
    },
  );
});

describe.each(TEST_DATABASES)('fulfilling payment links when the process dies halfway, on %s', (kind) => {
  const t = useTestApp(kind);

  it(
    'When the transaction that records paid dies after the fulfilment ran, then nothing of it stays and the next processing fulfils ' +
      'the link once',
    async () => {
      const { token, accountId } = await t.newAccount();
      const account: Account = await t.ctx.db('accounts').where({ id: accountId }).first();
      // A handler after the link's own one that fails once: as a crash between the fulfilment and the commit.
      let dieOnce = true;
      t.ctx.settlements.on('invoices', ['link'], async () => {
        if (dieOnce) {
          dieOnce = false;
          throw new Error('the process died here');
        }
      });
      const customer = await t.as(token).post('/api/v2/customers', { first_name: 'Bo', last_name: 'Jansen', email: 'bo@example.nl' });
      const link = (await t.as(token).post('/api/v2/links', { type: 'subscription', description: 'Crash', amount: 10, interval: 'month' }))
        .body;
      const row = await startPayment(t.ctx, account, {
        purpose: 'link',
        purposeId: link.id,
        customer: { id: customer.body.id, providerCustomerId: customer.body.provider_customer_id },
        sequenceType: 'first',
        mandateId: null,
        amount: 1000,
        currency: 'EUR',
        description: 'Crash',
        method: null,
        redirectUrl: 'https://shop.example/return',
        webhookUrl: null,
        profileId: null,
      });
      const remote = (await t.ctx.db('sandbox_payments').where({ id: row.provider_payment_id }).first()) as SandboxPaymentRow;
      await completeCheckout(t.ctx.db, remote, 'paid', t.ctx.clock.now());

      const deliver = () =>
        request(t.app).post(`/webhooks/mollie?account=${account.public_ref}`).type('form').send({ id: row.provider_payment_id });
      await deliver();
      await t.ctx.background.idle();
      expect(await t.ctx.db('payments').where({ id: row.id }).first()).toMatchObject({ status: 'open' });
      expect(await t.ctx.db('link_fulfilments').where({ link_id: link.id })).toHaveLength(0);
      expect(await t.ctx.db('subscriptions').where({ account_id: accountId })).toHaveLength(0);

      await deliver(); // Mollie calls again
      await t.ctx.background.idle();
      expect(await t.ctx.db('payments').where({ id: row.id }).first()).toMatchObject({ status: 'paid' });
      expect(await t.ctx.db('subscriptions').where({ account_id: accountId })).toHaveLength(1);
      expect((await t.as(token).get(`/api/v2/links/${link.id}`)).body.status).toBe('paid');
    },
  );
});

import request from 'supertest';
import { randomBase62 } from '../../src/ids';
import { setProviderSettings } from '../../src/modules/accounts/providerSettings';
import { runBilling } from '../../src/modules/billing/run';
import { runFollowUps } from '../../src/modules/follow-ups/progress';
import { processDueWebhookCalls } from '../../src/modules/payments/webhookCalls';
import { MollieFake } from '../../fakes/mollie/fake';
import { serveWithNock } from '../../fakes/mollie/nock';
import { cli } from '../cli/runInMemory';
import { TEST_MOLLIE_KEY } from '../support/mollieNock';
import { seedBillableSubscriptions } from '../support/billing';
import { TEST_DATABASES } from '../support/databases';
import { useTestApp } from '../support/testApp';
import { invoicesOf } from '../support/invoices';

/** A period paid by a follow-up (its retry or its link) is invoiced; money charged back and paid again is invoiced again. */
describe.each(TEST_DATABASES)('invoices of charges paid by a follow-up on %s', (kind) => {
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
    accountName = `Follow-up invoices ${randomBase62(8)}`;
    ({ accountId, token } = await t.newAccount(accountName));
    await setProviderSettings(t.ctx, accountName, { mollieApiKey: TEST_MOLLIE_KEY, allowLive: false });
    expect((await cli(t.ctx, 'accounts', 'set-invoicing', '--account', accountName, '--prefix', 'F-', '--vat', '21')).code).toBe(0);
    [subscriptionId] = (await seedBillableSubscriptions(t.ctx.db, accountId, 1)) as [string];
    for (const customer of await t.ctx.db('customers').where({ account_id: accountId })) {
      fake.customers.set(customer.provider_customer_id, { resource: 'customer', id: customer.provider_customer_id });
    }
    publicRef = (await t.ctx.db('accounts').where({ id: accountId }).first()).public_ref;
  });
  afterEach(() => served.stop());

  const on = (date: string) => t.clock.set(`${date}T07:00:00Z`);

  async function report(providerPaymentId: string) {
    const res = await request(t.app).post(`/webhooks/mollie?account=${publicRef}`).type('form').send({ id: providerPaymentId });
    expect(res.status).toBe(200);
    await processDueWebhookCalls(t.ctx, new AbortController().signal);
    await t.ctx.background.idle();
  }

  async function settle(purpose: 'charge' | 'follow-up' | 'link', status: string, details?: Record<string, string>) {
    const payment = await t.ctx
      .db('payments')
      .where({ account_id: accountId, purpose })
      .orderBy('seq', 'desc')
      .first<{ id: string; provider_payment_id: string }>();
    fake.setPaymentStatus(payment.provider_payment_id, status, details);
    await report(payment.provider_payment_id);
    return payment;
  }

  async function chargeOfDecember() {
    on('2026-12-01');
    expect(await runBilling(t.ctx, '2026-12-01')).toMatchObject({ charged: 1 });
    return t.ctx.db('subscription_charges').where({ account_id: accountId }).first<{ id: string }>();
  }

  it('When a failed charge is paid by its retry, then the charge gets its invoice, for the retry’s payment, once', async () => {
    const charge = await chargeOfDecember();
    await settle('charge', 'failed', { bankReasonCode: 'AM04', bankReason: 'Insufficient funds' });
    expect(await invoicesOf(t, accountId)).toHaveLength(0);

    on('2026-12-04');
    await runFollowUps(t.ctx, '2026-12-04');
    const retry = await settle('follow-up', 'paid');
    await report(retry.provider_payment_id);

    const invoices = await invoicesOf(t, accountId);
    expect(invoices).toEqual([
      expect.objectContaining({
        charge_id: charge.id,
        subscription_id: subscriptionId,
        payment_id: retry.id,
        payment_key: null,
        number: 'F-1',
        status: 'issued',
        total_including_vat: 1250,
      }),
    ]);
    const body = (await t.as(token).get(`/api/v2/invoices/${invoices[0].id}`)).body;
    expect(body).toMatchObject({ subscription_id: subscriptionId, link_id: null, order_id: null, total_vat: '2.17' });
  });

  it('When a failed charge is paid by the link its follow-up sent, then that is the charge’s invoice, links invoiced or not', async () => {
    expect((await cli(t.ctx, 'accounts', 'set-follow-ups', '--account', accountName, '--type', 'link')).code).toBe(0);
    const charge = await chargeOfDecember();
    await settle('charge', 'failed', { bankReasonCode: 'MS02', bankReason: 'Refusal by the debtor' });
    on('2026-12-02');
    expect(await runFollowUps(t.ctx, '2026-12-02')).toMatchObject({ linked: 1 });
    const [link] = await t.ctx.db('payment_links').where({ account_id: accountId });
    expect((await request(t.app).post(`/pay/${link.id}`).type('form').send({})).status).toBe(303);
    const paid = await settle('link', 'paid');

    expect(await invoicesOf(t, accountId)).toEqual([
      expect.objectContaining({ charge_id: charge.id, link_id: null, payment_id: paid.id, number: 'F-1', total_including_vat: 1250 }),
    ]);
  });

  it('When money charged back is paid again, then a new invoice stands beside the credited one: the books add up', async () => {
    const charge = await chargeOfDecember();
    const first = await settle('charge', 'paid');
    fake.chargeBack(first.provider_payment_id);
    await report(first.provider_payment_id);
    on('2026-12-02');
    await runFollowUps(t.ctx, '2026-12-02');
    const [link] = await t.ctx.db('payment_links').where({ account_id: accountId });
    expect((await request(t.app).post(`/pay/${link.id}`).type('form').send({})).status).toBe(303);
    const again = await settle('link', 'paid');

    const invoices = await invoicesOf(t, accountId);
    expect(invoices).toEqual([
      expect.objectContaining({ charge_id: charge.id, payment_id: first.id, number: 'F-1', total_including_vat: 1250 }),
      expect.objectContaining({
        charge_id: null,
        subscription_id: subscriptionId,
        payment_id: again.id,
        payment_key: again.id,
        number: 'F-3',
        total_including_vat: 1250,
      }),
    ]);
    const [note] = await t.ctx.db('credit_notes').where({ account_id: accountId });
    expect(note).toMatchObject({ invoice_id: invoices[0].id, number: 'F-2', total_including_vat: -1250 });
    const booked = invoices.reduce((sum, row) => sum + Number(row.total_including_vat), Number(note.total_including_vat));
    expect(booked).toBe(1250);
  });
});

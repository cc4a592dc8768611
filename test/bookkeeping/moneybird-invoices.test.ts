import request from 'supertest';
import { queueCreditInvoice, runDueBookkeeping } from '../../src/modules/invoices/bookkeepingOutbox';
import { runBilling } from '../../src/modules/billing/run';
import { vatCents } from '../../src/money/vat';
import { processDueWebhookCalls } from '../../src/modules/payments/webhookCalls';
import { TEST_DATABASES } from '../support/databases';
import { startMoneybirdFake, type MoneybirdFake } from '../support/moneybirdFake';
import { useTestApp } from '../support/testApp';
import { connectToFake, subscribeWithStyle, type InvoiceRuleBody } from '../support/moneybird';

const TWO_RATES: InvoiceRuleBody[] = [
  { quantity: 2, description: 'Coffee beans 500 g', amount: 6.25, vat: '9', ledger_account_id: '8000' },
  { quantity: 1, description: 'Delivery', amount: 4.13, vat: '21' },
];

describe.each(TEST_DATABASES)('invoices to Moneybird, on %s', (kind) => {
  let fake: MoneybirdFake;
  const env: Record<string, string> = {};
  beforeAll(async () => {
    fake = await startMoneybirdFake();
    env.MONEYBIRD_API_URL = fake.url;
  });
  const t = useTestApp(kind, { env, perTest: true });
  afterAll(() => fake.close());

  const runJob = () => runDueBookkeeping(t.ctx, new AbortController().signal);

  /** An account connected to the fake with one subscription whose first charge (of 1 December) is paid: its invoice record. */
  async function paidInvoice(rules: InvoiceRuleBody[] = TWO_RATES, { send = false, amount }: { send?: boolean; amount?: number } = {}) {
    const name = `Moneybird ${Math.random().toString(36).slice(2, 8)}`;
    const { token, accountId } = await t.newAccount(name);
    await connectToFake(t, fake, name, send);
    // Charged what the lines add up to (VAT included, half-up per line): else the invoice is not issued.
    const charged =
      amount ??
      rules.reduce((sum, rule) => {
        const excluding = Math.round(rule.quantity * rule.amount * 100);
        return sum + excluding + vatCents(excluding, rule.vat);
      }, 0);
    const subscribed = await subscribeWithStyle(
      t,
      token,
      { workflow_id: fake.workflowId, docstyle_id: fake.docstyleId },
      rules,
      charged / 100,
    );
    expect(subscribed.status).toBe(201);
    t.clock.set('2026-12-01T06:00:00Z');
    await runBilling(t.ctx, '2026-12-01');
    const account = await t.ctx.db('accounts').where({ id: accountId }).first();
    for (const payment of await t.ctx.db('payments').where({ account_id: accountId, purpose: 'charge' })) {
      await request(t.app).post(`/webhooks/mollie?account=${account.public_ref}`).type('form').send({ id: payment.provider_payment_id });
    }
    await processDueWebhookCalls(t.ctx, new AbortController().signal);
    await t.ctx.background.idle();
    const invoice = await t.ctx.db('invoices').where({ account_id: accountId }).first();
    if (amount === undefined) expect(invoice.bookkeeping_status).toBe('pending');
    return { invoice, token, accountId, subscriptionId: subscribed.body.id as string, customerId: subscribed.customerId };
  }

  const atMoneybird = (reference: string) => fake.invoices.filter((invoice) => invoice.reference === reference);
  const invoiceApi = async (token: string, subscriptionId: string) =>
    (await t.as(token).get(`/api/v2/subscriptions/${subscriptionId}/invoices`)).body.data[0];

  it('When an invoice with two rules and two VAT rates is paid, then one Moneybird draft has both lines, style, payment', async () => {
    const { invoice, token, subscriptionId, customerId } = await paidInvoice();
    expect(await runJob()).toEqual({ processed: 1, failed: 0 });
    const [sales] = atMoneybird(invoice.id);
    expect(atMoneybird(invoice.id)).toHaveLength(1);
    expect(sales).toMatchObject({
      state: 'draft',
      workflow_id: fake.workflowId,
      document_style_id: fake.docstyleId,
      currency: 'EUR',
      prices_are_incl_tax: false,
      details: [
        {
          description: 'Coffee beans 500 g',
          price: '6.25',
          amount: '2',
          tax_rate_id: '600000000000000009',
          ledger_account_id: fake.ledgerAccountId,
        },
        { description: 'Delivery', price: '4.13', amount: '1', tax_rate_id: '600000000000000021', ledger_account_id: null },
      ],
      payments: [{ price: '18.63', payment_date: '2026-12-01', transaction_identifier: invoice.payment_id }],
    });
    // 12.50 + 9% (1.13) + 4.13 + 21% (0.87): Moneybird's total matches ours.
    expect(sales?.total_price_incl_tax).toBe('18.63');
    expect(invoice.total_including_vat).toBe(1863);
    // The contact was made once for the customer and is remembered.
    expect(fake.contacts.filter((contact) => contact.customer_id === customerId)).toHaveLength(1);
    const contact = await t.ctx.db('moneybird_contacts').where({ customer_id: customerId }).first();
    expect(contact.contact_id).toBe(sales?.contact_id);
    expect(await invoiceApi(token, subscriptionId)).toMatchObject({ bookkeeping_status: 'sent', bookkeeping_reference: sales?.id });
    expect(await runJob()).toEqual({ processed: 0, failed: 0 });
    expect(atMoneybird(invoice.id)).toHaveLength(1);
  });

  it('When the account sends invoices, then the invoice is sent (no longer a draft) and paid', async () => {
    const { invoice } = await paidInvoice(TWO_RATES, { send: true });
    await runJob();
    expect(atMoneybird(invoice.id)).toMatchObject([{ state: 'paid', invoice_id: expect.stringMatching(/^2026-\d{4}$/) }]);
  });

  it('When Moneybird answers 429 and then 503, then the job retries after Retry-After and backoff: one invoice', async () => {
    const { invoice, token, subscriptionId } = await paidInvoice();
    fake.arrange('POST', /\/sales_invoices\.json$/, { kind: 'error', status: 429, retryAfter: 300, body: { error: 'Too many requests' } });
    expect(await runJob()).toEqual({ processed: 0, failed: 1 });
    const api = await invoiceApi(token, subscriptionId);
    expect(api.bookkeeping_status).toBe('pending');
    expect(api.bookkeeping_error).toContain('Moneybird rate limit reached');
    const row = await t.ctx.db('bookkeeping_outbox').where({ reference: invoice.id }).first();
    expect(row.next_attempt_at).toMatch(/2026-12-01 06:05:00/); // Retry-After 300 s, longer than the first minute of backoff
    t.clock.advance(60_000);
    expect(await runJob()).toEqual({ processed: 0, failed: 0 }); // not due yet
    t.clock.advance(240_000);
    fake.arrange('POST', /\/sales_invoices\.json$/, { kind: 'error', status: 503, body: { error: 'Service unavailable' } });
    expect(await runJob()).toEqual({ processed: 0, failed: 1 });
    expect((await t.ctx.db('bookkeeping_outbox').where({ reference: invoice.id }).first()).last_error).toContain('Moneybird answered 503');
    t.clock.advance(120_000);
    expect(await runJob()).toEqual({ processed: 1, failed: 0 });
    expect(atMoneybird(invoice.id)).toHaveLength(1);
    expect(await invoiceApi(token, subscriptionId)).toMatchObject({ bookkeeping_status: 'sent' });
    expect((await invoiceApi(token, subscriptionId)).bookkeeping_error).toBeUndefined();
  });

  it('When the answer to the create is lost, then the retry finds the invoice by our reference and makes no second one', async () => {
    const { invoice, token, subscriptionId } = await paidInvoice();
    fake.arrange('POST', /\/sales_invoices\.json$/, { kind: 'lose' });
    expect(await runJob()).toEqual({ processed: 0, failed: 1 });
    expect(atMoneybird(invoice.id)).toHaveLength(1); // Moneybird made it; we do not know
    expect(atMoneybird(invoice.id)[0]?.payments).toHaveLength(0);
    t.clock.advance(61_000);
    expect(await runJob()).toEqual({ processed: 1, failed: 0 });
    expect(atMoneybird(invoice.id)).toHaveLength(1);
    expect(atMoneybird(invoice.id)[0]?.payments).toHaveLength(1);
    expect(await invoiceApi(token, subscriptionId)).toMatchObject({
      bookkeeping_status: 'sent',
      bookkeeping_reference: atMoneybird(invoice.id)[0]?.id,
    });
  });

  it('When the answer to the payment is lost, then the retry registers no second payment', async () => {
    const { invoice } = await paidInvoice();
    fake.arrange('POST', /\/payments\.json$/, { kind: 'lose' });
    await runJob();
    t.clock.advance(61_000);
    expect(await runJob()).toEqual({ processed: 1, failed: 0 });
    expect(atMoneybird(invoice.id)).toHaveLength(1);
    expect(atMoneybird(invoice.id)[0]?.payments).toHaveLength(1);
  });

  it('When a line has a VAT rate the administration lacks, then the invoice fails with a clear reason and nothing is made', async () => {
    const { invoice, token, subscriptionId } = await paidInvoice([{ quantity: 1, description: 'Book', amount: 10, vat: '6' }]);
    expect(await runJob()).toEqual({ processed: 0, failed: 1 });
    expect(atMoneybird(invoice.id)).toHaveLength(0);
    expect(await invoiceApi(token, subscriptionId)).toMatchObject({
      bookkeeping_status: 'failed',
      bookkeeping_error: 'Invoice line 1 ("Book"): the Moneybird administration has no active sales tax rate of 6% (it has 21%, 9%, 0%)',
    });
    t.clock.advance(86_400_000);
    expect(await runJob()).toEqual({ processed: 0, failed: 0 }); // failed is final until retried
  });

  it('When a line names a ledger account the administration lacks, then the invoice fails naming it', async () => {
    const { invoice, token, subscriptionId } = await paidInvoice([
      { quantity: 1, description: 'Beans', amount: 10, vat: '9', ledger_account_id: '4999' },
    ]);
    expect(await runJob()).toEqual({ processed: 0, failed: 1 });
    expect(atMoneybird(invoice.id)).toHaveLength(0);
    expect(await invoiceApi(token, subscriptionId)).toMatchObject({
      bookkeeping_status: 'failed',
      bookkeeping_error: 'Invoice line 1 ("Beans"): the Moneybird administration has no ledger account 4999 (by id or account code)',
    });
  });

  it('When a refund is credited, then one Moneybird credit invoice has the lines negated and the refund as its payment', async () => {
    const { invoice, accountId } = await paidInvoice();
    await runJob();
    const reference = 'rfd_test_credit_1';
    const id = await queueCreditInvoice(t.ctx.db, t.clock, { accountId, invoiceId: invoice.id, reference, reason: 'refund' });
    expect(id).toMatch(/^bko_/);
    expect(await queueCreditInvoice(t.ctx.db, t.clock, { accountId, invoiceId: invoice.id, reference, reason: 'refund' })).toBe(id);
    fake.arrange('POST', /\/sales_invoices\.json$/, { kind: 'lose' });
    await runJob();
    t.clock.advance(61_000);
    expect(await runJob()).toEqual({ processed: 1, failed: 0 });
    expect(atMoneybird(reference)).toHaveLength(1);
    expect(atMoneybird(reference)[0]).toMatchObject({
      details: [
        { description: 'Coffee beans 500 g', price: '-6.25', amount: '2', tax_rate_id: '600000000000000009' },
        { description: 'Delivery', price: '-4.13', amount: '1', tax_rate_id: '600000000000000021' },
      ],
      total_price_incl_tax: '-18.63',
      payments: [{ price: '-18.63', transaction_identifier: reference }],
    });
    const row = await t.ctx.db('bookkeeping_outbox').where({ id }).first();
    expect(row).toMatchObject({ kind: 'credit', status: 'sent', credit_reason: 'refund', external_id: atMoneybird(reference)[0]?.id });
    // The invoice itself stays as it was sent.
    expect((await t.ctx.db('invoices').where({ id: invoice.id }).first()).bookkeeping_status).toBe('sent');
  });

  it('When a chargeback credits one line, then the credit invoice has that line only', async () => {
    const { invoice, accountId } = await paidInvoice();
    await runJob();
    const [first] = JSON.parse(invoice.lines);
    await queueCreditInvoice(t.ctx.db, t.clock, {
      accountId,
      invoiceId: invoice.id,
      reference: 'chb_1',
      reason: 'chargeback',
      lines: [first],
    });
    await runJob();
    expect(atMoneybird('chb_1')[0]).toMatchObject({ details: [{ price: '-6.25', amount: '2' }], payments: [{ price: '-13.63' }] });
  });

  it('When a paid charge sent to Moneybird is charged back, then its credit note here becomes one credit invoice there', async () => {
    const { invoice, accountId, token } = await paidInvoice();
    await runJob();
    const payment = await t.ctx.db('payments').where({ id: invoice.payment_id }).first();
    await t.ctx
      .db('sandbox_payments')
      .where({ id: payment.provider_payment_id })
      .update({ status: 'charged_back', amount_charged_back: 1863 });
    const account = await t.ctx.db('accounts').where({ id: accountId }).first();
    for (let call = 0; call < 2; call += 1) {
      await request(t.app).post(`/webhooks/mollie?account=${account.public_ref}`).type('form').send({ id: payment.provider_payment_id });
      await processDueWebhookCalls(t.ctx, new AbortController().signal);
      await t.ctx.background.idle();
    }
    const [note] = (await t.as(token).get(`/api/v2/invoices/${invoice.id}`)).body.credit_notes;
    expect(note).toMatchObject({ reason: 'chargeback', total_including_vat: '-18.63' });
    expect(await runJob()).toEqual({ processed: 1, failed: 0 });
    expect(await runJob()).toEqual({ processed: 0, failed: 0 });
    // All of it went back: the invoice's own lines (with their ledger accounts) credited, once.
    expect(atMoneybird(note.id)).toHaveLength(1);
    expect(atMoneybird(note.id)[0]).toMatchObject({
      details: [{ price: '-6.25', ledger_account_id: fake.ledgerAccountId }, { price: '-4.13' }],
      total_price_incl_tax: '-18.63',
    });
  });

  it('When part of a three-line invoice is refunded, then the Moneybird credit invoice totals exactly what went back', async () => {
    // 33.33 in all; 10.00 of it shared over the rates is 6.89 at 21 % and 3.11 at 9 %: sent as net prices, Moneybird
    // would add 21 % to 5.69 and make 6.88 of it (a cent off); sent VAT-inclusive, the total is 10.00 exactly.
    const { invoice, accountId, token } = await paidInvoice([
      { quantity: 1, description: 'Coffee beans 1 kg', amount: 8.0, vat: '21' },
      { quantity: 1, description: 'Descaler', amount: 10.98, vat: '21' },
      { quantity: 1, description: 'Coffee book', amount: 9.5, vat: '9' },
    ]);
    expect(invoice.total_including_vat).toBe(3333);
    await runJob();
    const refund = await t.as(token).post(`/api/v2/payments/${invoice.payment_id}/refunds`).send({ amount: 10 });
    expect(refund.status).toBe(201);
    const account = await t.ctx.db('accounts').where({ id: accountId }).first();
    const payment = await t.ctx.db('payments').where({ id: invoice.payment_id }).first();
    // The sandbox settles a refund when its payment is looked at: the webhook call does.
    await request(t.app).post(`/webhooks/mollie?account=${account.public_ref}`).type('form').send({ id: payment.provider_payment_id });
    await processDueWebhookCalls(t.ctx, new AbortController().signal);
    await t.ctx.background.idle();
    const [note] = (await t.as(token).get(`/api/v2/invoices/${invoice.id}`)).body.credit_notes;
    expect(note).toMatchObject({ reason: 'refund', total_including_vat: '-10.00' });
    expect(await runJob()).toEqual({ processed: 1, failed: 0 });
    const [credit] = atMoneybird(note.id);
    expect(credit).toMatchObject({ prices_are_incl_tax: true, total_price_incl_tax: '-10.00', payments: [{ price: '-10.00' }] });
    expect(credit?.details.map((detail) => [detail.price, detail.tax_rate_id])).toEqual([
      ['-6.89', '600000000000000021'],
      ['-3.11', '600000000000000009'],
    ]);
  });

  it('When the invoice rules do not add up to the charge, then the invoice is not issued and nothing goes to Moneybird', async () => {
    const { invoice } = await paidInvoice(TWO_RATES, { amount: 1750 });
    expect(invoice).toMatchObject({ status: 'not_issued', number: null, bookkeeping_status: 'none' });
    expect(await runJob()).toEqual({ processed: 0, failed: 0 });
    expect(atMoneybird(invoice.id)).toHaveLength(0);
  });
});

import request from 'supertest';
import { registerBookkeepingAdapterForTests } from '../../src/bookkeeping';
import { runBilling } from '../../src/modules/billing/run';
import { queueCreditInvoice, runDueBookkeeping } from '../../src/modules/invoices/bookkeepingOutbox';
import { processDueWebhookCalls } from '../../src/modules/payments/webhookCalls';
import { cli } from '../cli/runInMemory';
import { TEST_DATABASES } from '../support/databases';
import { memoryBookkeeping } from '../support/memoryBookkeeping';
import { useTestApp, type TestApp } from '../support/testApp';

// Registered before any app of this file is made, through the registry's test hook: no module names it.
const ledgerbook = memoryBookkeeping();
const unregister = registerBookkeepingAdapterForTests(ledgerbook.adapter);
afterAll(() => unregister());

/** A customer with a mandate, and a monthly subscription of 1 December with one invoice rule (12.50 + 9 % VAT). */
async function subscribe(t: TestApp, token: string, style: { workflow_id: string; docstyle_id: string }) {
  const customer = await t.as(token).post('/api/v2/customers', { first_name: 'Lotte', last_name: 'Bos', email: 'lotte@example.nl' });
  const mandate = await t
    .as(token)
    .post(`/api/v2/customers/${customer.body.id}/mandates`, { consumer_name: 'L. Bos', consumer_account: 'NL91ABNA0417164300' });
  return t.as(token).post('/api/v2/subscriptions', {
    name: 'Tea box',
    customer_id: customer.body.id,
    provider_profile_id: 'pfl_test123456',
    provider_mandate_id: mandate.body.id,
    start_date: '2026-12-01',
    ...style,
    rules: [
      {
        amount: 13.63,
        interval: 'month',
        interval_amount: 1,
        invoice_rules: [{ quantity: 1, description: 'Tea box', amount: 12.5, vat: '9' }],
      },
    ],
  });
}

describe.each(TEST_DATABASES)('a bookkeeping system known only to its adapter, on %s', (kind) => {
  const t = useTestApp(kind);

  it('When an account is connected to it, then its paid invoice and a credit reach it through the outbox', async () => {
    const name = `Ledgerbook Shop ${kind}`;
    const { accountId, token } = await t.newAccount(name);
    const connected = await cli(t.ctx, 'accounts', 'set-bookkeeping', 'ledgerbook', '--account', name, '--ledgerbook-key', 'lk_1');
    expect(connected).toEqual({ code: 0, out: [`Account "${name}" books in Ledgerbook`], err: [] });

    // Its descriptor checks the document style, in its own words.
    const refused = await subscribe(t, token, { workflow_id: 'wf_ok', docstyle_id: 'ds_nope' });
    expect(refused.status).toBe(422);
    expect(refused.body.fields).toEqual({ docstyle_id: ['Ledgerbook has no such document style.'] });
    expect((await subscribe(t, token, { workflow_id: 'wf_ok', docstyle_id: 'ds_ok' })).status).toBe(201);

    t.clock.set('2026-12-01T06:00:00Z');
    await runBilling(t.ctx, '2026-12-01');
    const account = await t.ctx.db('accounts').where({ id: accountId }).first();
    for (const payment of await t.ctx.db('payments').where({ account_id: accountId, purpose: 'charge' })) {
      await request(t.app).post(`/webhooks/mollie?account=${account.public_ref}`).type('form').send({ id: payment.provider_payment_id });
    }
    await processDueWebhookCalls(t.ctx, new AbortController().signal);
    await t.ctx.background.idle();
    const invoice = await t.ctx.db('invoices').where({ account_id: accountId }).first();
    expect(invoice).toMatchObject({ status: 'issued', bookkeeping_status: 'pending' });
    // Queued with the invoice, in its transaction, for the system the account names.
    expect(await t.ctx.db('bookkeeping_outbox').where({ reference: invoice.id })).toEqual([
      expect.objectContaining({ system: 'ledgerbook', kind: 'invoice', status: 'pending' }),
    ]);

    const run = () => runDueBookkeeping(t.ctx, new AbortController().signal);
    expect(await run()).toEqual({ processed: 1, failed: 0 });
    expect(ledgerbook.booked.filter((doc) => doc.accountId === accountId)).toEqual([
      {
        reference: invoice.id,
        kind: 'invoice',
        accountId,
        key: 'lk_1',
        workflowId: 'wf_ok',
        docstyleId: 'ds_ok',
        lines: [expect.objectContaining({ description: 'Tea box', amount: 1250, vat: '9', total_including_vat: 1363 })],
      },
    ]);
    expect(await t.ctx.db('invoices').where({ id: invoice.id }).first()).toMatchObject({
      bookkeeping_status: 'sent',
      bookkeeping_reference: expect.stringMatching(/^lb-\d+$/),
    });
    // The invoices module hands over whom the invoice bills (its subscription's customer): the system reads no module.
    const subscription = await t.ctx.db('subscriptions').where({ account_id: accountId }).first();
    expect(ledgerbook.billed.get(invoice.id)).toEqual({
      customerId: subscription.customer_id,
      customer: expect.objectContaining({ id: subscription.customer_id, first_name: 'Lotte', last_name: 'Bos', email: 'lotte@example.nl' }),
    });

    const credit = await queueCreditInvoice(t.ctx.db, t.clock, {
      accountId,
      invoiceId: invoice.id,
      reference: `crn_ledger_${kind}`,
      reason: 'refund',
    });
    expect(credit).toEqual(expect.any(String));
    expect(await run()).toEqual({ processed: 1, failed: 0 });
    expect(ledgerbook.booked.filter((doc) => doc.accountId === accountId).map((doc) => [doc.kind, doc.reference])).toEqual([
      ['invoice', invoice.id],
      ['credit', `crn_ledger_${kind}`],
    ]);
    expect(ledgerbook.billed.get(`crn_ledger_${kind}`)).toEqual(ledgerbook.billed.get(invoice.id));
  });
});

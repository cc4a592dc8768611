import request from 'supertest';
import { registerBookkeepingAdapterForTests } from '../../src/bookkeeping';
import { runBilling } from '../../src/modules/billing/run';
import { queueCreditInvoice, runDueBookkeeping } from '../../src/modules/invoices/bookkeepingOutbox';
import { processDueWebhookCalls } from '../../src/modules/payments/webhookCalls';
import { cli } from '../cli/runInMemory';
import { TEST_DATABASES } from '../support/databases';
import { memoryBookkeeping } from '../support/memoryBookkeeping';
import { useTestApp } from '../support/testApp';

// Registered before any app of this file is made, through the registry's test hook.
const ledgerbook = memoryBookkeeping();
const unregister = registerBookkeepingAdapterForTests(ledgerbook.adapter);
afterAll(() => unregister());

/**
 * The invoices module, not the system, now finds whom an invoice bills (billTo). Several accounts' documents go out
 * in one run of the job, with the systems opened per account: each must bill its own account's customer, the one
 * of the invoice's subscription, and a credit the same customer as its invoice.
 */
describe.each(TEST_DATABASES)('whom each account’s documents bill, on %s', (kind) => {
  const t = useTestApp(kind);

  async function connectedShop(label: string, customer: { first_name: string; last_name: string; email: string }) {
    const name = `Bill-to ${label} ${kind}`;
    const { accountId, token } = await t.newAccount(name);
    expect((await cli(t.ctx, 'accounts', 'set-bookkeeping', 'ledgerbook', '--account', name, '--ledgerbook-key', `lk_${label}`)).code).toBe(
      0,
    );
    const made = await t.as(token).post('/api/v2/customers', customer);
    const mandate = await t
      .as(token)
      .post(`/api/v2/customers/${made.body.id}/mandates`, { consumer_name: customer.last_name, consumer_account: 'NL91ABNA0417164300' });
    const subscription = await t.as(token).post('/api/v2/subscriptions', {
      name: 'Tea box',
      customer_id: made.body.id,
      provider_profile_id: 'pfl_test123456',
      provider_mandate_id: mandate.body.id,
      start_date: '2026-12-01',
      workflow_id: 'wf_ok',
      docstyle_id: 'ds_ok',
      rules: [
        {
          amount: 13.63,
          interval: 'month',
          interval_amount: 1,
          invoice_rules: [{ quantity: 1, description: 'Tea box', amount: 12.5, vat: '9' }],
        },
      ],
    });
    expect(subscription.status).toBe(201);
    return { accountId, customerId: made.body.id as string };
  }

  async function paidCharges(accountIds: string[]) {
    for (const accountId of accountIds) {
      const account = await t.ctx.db('accounts').where({ id: accountId }).first();
      for (const payment of await t.ctx.db('payments').where({ account_id: accountId, purpose: 'charge' })) {
        await request(t.app).post(`/webhooks/mollie?account=${account.public_ref}`).type('form').send({ id: payment.provider_payment_id });
      }
    }
    await processDueWebhookCalls(t.ctx, new AbortController().signal);
    await t.ctx.background.idle();
  }

  it('When two accounts’ invoices and credits go out in one run, then each bills its own subscription’s customer', async () => {
    const lotte = await connectedShop('a', { first_name: 'Lotte', last_name: 'Bos', email: 'lotte@example.nl' });
    const sem = await connectedShop('b', { first_name: 'Sem', last_name: 'de Wit', email: 'sem@example.nl' });

    t.clock.set('2026-12-01T06:00:00Z');
    await runBilling(t.ctx, '2026-12-01');
    await paidCharges([lotte.accountId, sem.accountId]);
    const invoiceOf = async (accountId: string) => {
      const invoice = await t.ctx.db('invoices').where({ account_id: accountId }).first();
      expect(invoice).toMatchObject({ status: 'issued', bookkeeping_status: 'pending' });
      return invoice as { id: string };
    };
    const lotteInvoice = await invoiceOf(lotte.accountId);
    const semInvoice = await invoiceOf(sem.accountId);
    for (const [accountId, invoiceId] of [
      [lotte.accountId, lotteInvoice.id],
      [sem.accountId, semInvoice.id],
    ] as const) {
      await queueCreditInvoice(t.ctx.db, t.clock, { accountId, invoiceId, reference: `crn_${invoiceId}`, reason: 'refund' });
    }

    expect(await runDueBookkeeping(t.ctx, new AbortController().signal)).toEqual({ processed: 4, failed: 0 });

    const billedTo = (reference: string) => ledgerbook.billed.get(reference);
    expect(billedTo(lotteInvoice.id)).toEqual({
      customerId: lotte.customerId,
      customer: expect.objectContaining({ id: lotte.customerId, first_name: 'Lotte', last_name: 'Bos', email: 'lotte@example.nl' }),
    });
    expect(billedTo(semInvoice.id)).toEqual({
      customerId: sem.customerId,
      customer: expect.objectContaining({ id: sem.customerId, first_name: 'Sem', last_name: 'de Wit', email: 'sem@example.nl' }),
    });
    expect(billedTo(`crn_${lotteInvoice.id}`)).toEqual(billedTo(lotteInvoice.id));
    expect(billedTo(`crn_${semInvoice.id}`)).toEqual(billedTo(semInvoice.id));
    // Each document reached the ledger of its own account, once.
    const booked = ledgerbook.booked.filter((doc) => doc.accountId === lotte.accountId || doc.accountId === sem.accountId);
    expect(booked.map((doc) => [doc.accountId, doc.key, doc.reference]).sort()).toEqual(
      [
        [lotte.accountId, 'lk_a', lotteInvoice.id],
        [lotte.accountId, 'lk_a', `crn_${lotteInvoice.id}`],
        [sem.accountId, 'lk_b', semInvoice.id],
        [sem.accountId, 'lk_b', `crn_${semInvoice.id}`],
      ].sort(),
    );
  });
});

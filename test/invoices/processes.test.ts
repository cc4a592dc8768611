import { setInvoiceSettings } from '../../src/modules/invoices/settingsRepository';
import { recordWebhookCall } from '../../src/modules/payments/webhookCalls';
import { MollieFake } from '../../fakes/mollie/fake';
import { serveOverHttps } from '../../fakes/mollie/https';
import { billableAccountAtFake, billingProcessEnv, problemsIn } from '../support/billingProcesses';
import { TEST_DATABASES } from '../support/databases';
import { runCliProcess } from '../support/serviceProcess';
import { createTestApp, type TestApp } from '../support/testApp';

const SUBSCRIPTIONS = 16;

jest.setTimeout(90_000);

/**
 * Two processes of the built CLI settling the paid charges of one account at the same time: each
 * settlement issues the charge's invoice with the account's next number in its own transaction. The
 * numbers run from the first on without a gap or a double.
 */
describe.each(TEST_DATABASES)('invoice numbers of two processes at once on %s', (kind) => {
  let t: TestApp;
  let fake: MollieFake;
  let mollie: { apiUrl: string; close(): Promise<void> };

  beforeEach(async () => {
    t = await createTestApp(kind);
    fake = new MollieFake('');
    mollie = await serveOverHttps(fake);
  });
  afterEach(async () => {
    await mollie.close();
    await t.close();
  });

  it('When two processes settle paid charges of one account at once, then the invoice numbers have no gaps or doubles', async () => {
    const accountId = await billableAccountAtFake(t, fake, mollie.apiUrl, SUBSCRIPTIONS);
    const account = await t.ctx.db('accounts').where({ id: accountId }).first();
    await setInvoiceSettings(t.ctx.db, t.clock, account.name, { prefix: '2026-', next_number: 1, default_vat: '21' });
    const env = billingProcessEnv(t, 4);
    const billed = await runCliProcess(env, ['billing', 'run', '--date', '2026-12-01', '--force']);
    expect([billed.code, problemsIn(billed.stderr)]).toEqual([0, []]);
    expect(fake.payments.size).toBe(SUBSCRIPTIONS);
    for (const id of fake.payments.keys()) {
      fake.setPaymentStatus(id, 'paid');
      await recordWebhookCall(t.ctx, 'mollie', accountId, id);
    }

    const runs = await Promise.all([
      runCliProcess(env, ['jobs', 'run', 'process-provider-webhooks']),
      runCliProcess(env, ['jobs', 'run', 'process-provider-webhooks']),
    ]);
    expect(runs.map((run) => [run.code, problemsIn(run.stderr)])).toEqual([
      [0, []],
      [0, []],
    ]);
    const invoices = await t.ctx.db('invoices').where({ account_id: accountId });
    expect(invoices).toHaveLength(SUBSCRIPTIONS);
    expect(invoices.map((invoice) => Number(String(invoice.number).slice('2026-'.length))).sort((a, b) => a - b)).toEqual(
      Array.from({ length: SUBSCRIPTIONS }, (_, index) => index + 1),
    );
    expect(new Set(invoices.map((invoice) => invoice.charge_id)).size).toBe(SUBSCRIPTIONS);
  });
});

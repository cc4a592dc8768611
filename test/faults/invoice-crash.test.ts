import { MollieFake } from '../../fakes/mollie/fake';
import { serveOverHttps } from '../../fakes/mollie/https';
import { setInvoiceSettings } from '../../src/modules/invoices/settingsRepository';
import { recordWebhookCall } from '../../src/modules/payments/webhookCalls';
import { toDbDateTime } from '../../src/time';
import { expectCleanAuditByProcess } from '../support/audit';
import { billableAccountAtFake, billingProcessEnv, problemsIn } from '../support/billingProcesses';
import { TEST_DATABASES } from '../support/databases';
import { refuseUpdatesOf } from '../support/rowWriteFault';
import { runCliProcess, startCliProcess } from '../support/serviceProcess';
import { createTestApp, type TestApp } from '../support/testApp';

jest.setTimeout(120_000);

async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * The built CLI settling a paid charge, killed (SIGKILL) after the payment's status change committed
 * and before its invoice was numbered: on MySQL it waits for the account's numbering row, which this
 * test holds locked; on SQLite (one writer at a time, no lock to hold from outside) a trigger refuses
 * the numbering, so the process leaves the same state behind. After a restart, two runs of the job at
 * once issue the owed invoice exactly once.
 */
describe.each(TEST_DATABASES)('a crash between a payment settling and its invoice, on %s', (kind) => {
  let t: TestApp;
  let fake: MollieFake;
  let mollie: { apiUrl: string; close(): Promise<void> };

  beforeEach(async () => {
    t = await createTestApp(kind);
    fake = new MollieFake('');
    mollie = await serveOverHttps(fake);
  });
  afterEach(async () => {
    await expectCleanAuditByProcess(billingProcessEnv(t, 1));
    await mollie.close();
    await t.close();
  });

  it('When the process dies after the payment is recorded paid, before its invoice is issued, then a restart issues it once', async () => {
    const accountId = await billableAccountAtFake(t, fake, mollie.apiUrl, 1);
    const account = await t.ctx.db('accounts').where({ id: accountId }).first();
    await setInvoiceSettings(t.ctx.db, t.clock, account.name, { prefix: 'K-', default_vat: '21' });
    const env = billingProcessEnv(t, 1);
    const billed = await runCliProcess(env, ['billing', 'run', '--date', '2026-12-01', '--force']);
    expect([billed.code, problemsIn(billed.stderr)]).toEqual([0, []]);
    for (const id of fake.payments.keys()) {
      fake.setPaymentStatus(id, 'paid');
      await recordWebhookCall(t.ctx, 'mollie', accountId, id);
    }

    let release: () => Promise<unknown>;
    if (kind === 'mysql') {
      const holder = await t.ctx.db.transaction();
      await holder('invoice_settings')
        .where({ account_id: accountId })
        .update({ updated_at: toDbDateTime(new Date()) });
      release = () => holder.rollback();
    } else {
      release = await refuseUpdatesOf(t.ctx.db, kind, 'invoice_settings', accountId, 'account_id');
    }
    const settling = startCliProcess(env, ['jobs', 'run', 'process-provider-webhooks']);
    const payment = () => t.ctx.db('payments').where({ account_id: accountId, purpose: 'charge' }).first();
    await until(async () => (await payment()).status === 'paid', 'the payment recorded paid');
    await settling.crash();
    await release();

    expect((await payment()).status).toBe('paid');
    expect(await t.ctx.db('invoices').where({ account_id: accountId })).toEqual([]);
    const owed = () => t.ctx.db('owed_invoices').where({ account_id: accountId });
    expect((await owed()).map((row) => row.status)).toEqual(['owed']);
    // The failed attempt (SQLite) set its next one a minute on: that minute has passed.
    await t.ctx
      .db('owed_invoices')
      .where({ account_id: accountId })
      .update({ next_attempt_at: toDbDateTime(new Date(Date.now() - 1000)) });

    const runs = await Promise.all([
      runCliProcess(env, ['jobs', 'run', 'issue-owed-invoices']),
      runCliProcess(env, ['jobs', 'run', 'issue-owed-invoices']),
    ]);
    expect(runs.map((run) => [run.code, problemsIn(run.stderr)])).toEqual([
      [0, []],
      [0, []],
    ]);
    const invoices = await t.ctx.db('invoices').where({ account_id: accountId });
    expect(invoices.map((invoice) => [invoice.number, invoice.status, invoice.payment_id])).toEqual([
      ['K-1', 'issued', (await payment()).id],
    ]);
    expect((await owed()).map((row) => row.status)).toEqual(['done']);
  });
});

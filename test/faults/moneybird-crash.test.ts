import request from 'supertest';
import { runDueBookkeeping } from '../../src/modules/invoices/bookkeepingOutbox';
import { runBilling } from '../../src/modules/billing/run';
import { processDueWebhookCalls } from '../../src/modules/payments/webhookCalls';
import { connectToFake, subscribeWithStyle } from '../support/moneybird';
import { TEST_DATABASES } from '../support/databases';
import { startMoneybirdFake, type MoneybirdFake } from '../support/moneybirdFake';
import { startCliProcess } from '../support/serviceProcess';
import { createTestApp, TEST_PUBLIC_URL, type TestApp } from '../support/testApp';
import { expectCleanAudit } from '../support/audit';

// A child process sends to Moneybird and is killed; on a busy 2-core CI machine that takes a while.
jest.setTimeout(120_000);

/**
 * `cli jobs run send-to-bookkeeping` as an operator runs it, killed with SIGKILL after Moneybird made
 * the invoice but before its answer arrived; the job then runs again: one invoice at Moneybird, paid.
 */
describe.each(TEST_DATABASES)('sending to Moneybird killed halfway, on %s', (kind) => {
  let t: TestApp;
  let fake: MoneybirdFake;

  beforeAll(async () => {
    fake = await startMoneybirdFake();
    t = await createTestApp(kind, { env: { MONEYBIRD_API_URL: fake.url } });
  });
  afterEach(() => expectCleanAudit(t.ctx));
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  it('When the job is killed while Moneybird makes the invoice, then running it again leaves one invoice there, paid', async () => {
    const name = `Crash ${Math.random().toString(36).slice(2, 8)}`;
    const { token, accountId } = await t.newAccount(name);
    await connectToFake(t, fake, name);
    const rules = [{ quantity: 1, description: 'Coffee box', amount: 12.5, vat: '9' }];
    // Charged what the rule adds up to (12.50 + 9 % VAT, half-up): else the invoice is not issued, and not sent.
    const style = { workflow_id: fake.workflowId, docstyle_id: fake.docstyleId };
    expect((await subscribeWithStyle(t, token, style, rules, 13.63)).status).toBe(201);
    t.clock.set('2026-12-01T06:00:00Z');
    await runBilling(t.ctx, '2026-12-01');
    const account = await t.ctx.db('accounts').where({ id: accountId }).first();
    for (const payment of await t.ctx.db('payments').where({ account_id: accountId, purpose: 'charge' })) {
      await request(t.app).post(`/webhooks/mollie?account=${account.public_ref}`).type('form').send({ id: payment.provider_payment_id });
    }
    await processDueWebhookCalls(t.ctx, new AbortController().signal);
    await t.ctx.background.idle();
    const invoice = await t.ctx.db('invoices').where({ account_id: accountId }).first();
    expect(invoice.bookkeeping_status).toBe('pending');

    fake.arrange('POST', /\/sales_invoices\.json$/, { kind: 'hold' });
    const held = fake.held();
    const running = startCliProcess(
      {
        NODE_ENV: 'test',
        DATABASE_URL: t.ctx.config.DATABASE_URL,
        APP_KEY: `base64:${t.ctx.config.appKey.toString('base64')}`,
        PUBLIC_URL: TEST_PUBLIC_URL,
        MONEYBIRD_API_URL: fake.url,
      },
      ['jobs', 'run', 'send-to-bookkeeping'],
    );
    await Promise.race([
      held,
      running.exited.then(({ stderr }) => {
        throw new Error(`the job ended before Moneybird made the invoice: ${stderr}`);
      }),
    ]);
    await running.crash();
    expect(fake.invoices.filter((made) => made.reference === invoice.id)).toHaveLength(1);
    expect((await t.ctx.db('invoices').where({ id: invoice.id }).first()).bookkeeping_status).toBe('pending');

    // The job's next run (its lease is the killed process's until it expires; the run itself is what matters).
    t.clock.set(new Date(Date.now() + 3_600_000));
    expect(await runDueBookkeeping(t.ctx, new AbortController().signal)).toEqual({ processed: 1, failed: 0 });
    const made = fake.invoices.filter((candidate) => candidate.reference === invoice.id);
    expect(made).toHaveLength(1);
    expect(made[0]?.payments).toHaveLength(1);
    expect(await t.ctx.db('invoices').where({ id: invoice.id }).first()).toMatchObject({
      bookkeeping_status: 'sent',
      bookkeeping_reference: made[0]?.id,
    });
  });
});

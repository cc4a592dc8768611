import request from 'supertest';
import { runDueBookkeeping } from '../../src/modules/invoices/bookkeepingOutbox';
import { runBilling } from '../../src/modules/billing/run';
import { processDueWebhookCalls } from '../../src/modules/payments/webhookCalls';
import { cli } from '../cli/runInMemory';
import { TEST_DATABASES } from '../support/databases';
import { startMoneybirdFake, type MoneybirdFake } from '../support/moneybirdFake';
import { useTestApp } from '../support/testApp';
import { connectToFake, subscribeWithStyle } from '../support/moneybird';

/*
 * An invoice issued while the account named a bookkeeping system this service has no adapter for (`--system
 * <name>`) waits `pending`. Before issue 37 the `send-to-bookkeeping` job queued every pending, issued invoice
 * of an account connected to Moneybird each time it ran, so connecting later sent the waiting ones too.
 */
describe.each(TEST_DATABASES)('invoices waiting before the account connects Moneybird, on %s', (kind) => {
  let fake: MoneybirdFake;
  const env: Record<string, string> = {};
  beforeAll(async () => {
    fake = await startMoneybirdFake();
    env.MONEYBIRD_API_URL = fake.url;
  });
  const t = useTestApp(kind, { env, perTest: true });
  afterAll(() => fake.close());

  it('When an account with a pending invoice connects Moneybird, then the job sends that invoice there once', async () => {
    const name = `Later ${Math.random().toString(36).slice(2, 8)}`;
    const { token, accountId } = await t.newAccount(name);
    expect((await cli(t.ctx, 'accounts', 'set-bookkeeping', '--system', 'exact', '--account', name)).code).toBe(0);
    const rules = [{ quantity: 1, description: 'Coffee box', amount: 12.5, vat: '9' }];
    const subscribed = await subscribeWithStyle(t, token, { workflow_id: fake.workflowId, docstyle_id: fake.docstyleId }, rules, 13.63);
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
    expect(invoice).toMatchObject({ status: 'issued', bookkeeping_status: 'pending' });

    await connectToFake(t, fake, name);
    const runJob = () => runDueBookkeeping(t.ctx, new AbortController().signal);
    await runJob();
    expect(fake.invoices.filter((sent) => sent.reference === invoice.id)).toHaveLength(1);
    expect(await t.ctx.db('invoices').where({ id: invoice.id }).first()).toMatchObject({ bookkeeping_status: 'sent' });
    await runJob();
    expect(fake.invoices.filter((sent) => sent.reference === invoice.id)).toHaveLength(1);
  });
});

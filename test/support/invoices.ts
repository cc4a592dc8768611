import request from 'supertest';
import { runBilling } from '../../src/modules/billing/run';
import { processDueWebhookCalls } from '../../src/modules/payments/webhookCalls';
import type { TestApp } from './testApp';

/** Bills the day and lets the sandbox settle every charge as paid (its webhook, then the calls' processing). */
export async function billAndSettle(t: TestApp, accountId: string, date: string): Promise<void> {
  t.clock.set(`${date}T06:00:00Z`);
  await runBilling(t.ctx, date);
  const account = await t.ctx.db('accounts').where({ id: accountId }).first();
  for (const payment of await t.ctx.db('payments').where({ account_id: accountId, purpose: 'charge' })) {
    await request(t.app).post(`/webhooks/mollie?account=${account.public_ref}`).type('form').send({ id: payment.provider_payment_id });
  }
  await processDueWebhookCalls(t.ctx, new AbortController().signal);
  await t.ctx.background.idle();
}

export const invoicesOf = (t: TestApp, accountId: string) => t.ctx.db('invoices').where({ account_id: accountId }).orderBy('seq');

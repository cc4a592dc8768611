import request from 'supertest';
import { runBilling } from '../../src/modules/billing/run';
import { cli, lastLine } from '../cli/runInMemory';
import { billableAccountAtFake } from './billingProcesses';
import type { MollieFake } from '../../fakes/mollie/fake';
import type { TestApp } from './testApp';

/** An account on the fake with `subscriptions` billable subscriptions, and an API token for it. */
export async function billableAccountWithToken(
  t: TestApp,
  fake: MollieFake,
  subscriptions = 1,
): Promise<{ accountId: string; token: string }> {
  const accountId = await billableAccountAtFake(t, fake, undefined, subscriptions);
  const { name } = await t.ctx.db('accounts').where({ id: accountId }).first('name');
  const token = lastLine((await cli(t.ctx, 'tokens', 'create', '--account', name)).out);
  return { accountId, token };
}

/** Mollie calls the account's webhook about a payment: the call is answered, then processed in the background. */
export async function mollieCallsWebhook(t: TestApp, accountId: string, providerPaymentId: string): Promise<void> {
  const { public_ref: publicRef } = await t.ctx.db('accounts').where({ id: accountId }).first('public_ref');
  const res = await request(t.app).post(`/webhooks/mollie?account=${publicRef}`).type('form').send({ id: providerPaymentId });
  expect(res.status).toBe(200);
  await t.ctx.background.idle();
}

/**
 * The billing run of 1 December charges the account's subscriptions (billableAccountAtFake) at the
 * fake, and Mollie reports each charge paid through the webhook.
 */
export async function paidCharges(
  t: TestApp,
  fake: MollieFake,
  accountId: string,
): Promise<Array<{ id: string; provider_payment_id: string }>> {
  t.clock.set('2026-12-01T07:00:00Z');
  await runBilling(t.ctx, '2026-12-01');
  const payments: Array<{ id: string; provider_payment_id: string }> = await t.ctx
    .db('payments')
    .where({ account_id: accountId, purpose: 'charge' })
    .orderBy('seq');
  for (const payment of payments) {
    fake.setPaymentStatus(payment.provider_payment_id, 'paid');
    await mollieCallsWebhook(t, accountId, payment.provider_payment_id);
  }
  const statuses = await t.ctx.db('payments').where({ account_id: accountId, purpose: 'charge' }).pluck('status');
  expect(statuses.length).toBeGreaterThan(0);
  expect(new Set(statuses)).toEqual(new Set(['paid']));
  return payments.map(({ id, provider_payment_id }) => ({ id, provider_payment_id }));
}

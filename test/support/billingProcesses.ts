import { randomBase62 } from '../../src/ids';
import { setProviderSettings } from '../../src/modules/accounts/providerSettings';
import { TEST_MOLLIE_KEY } from './mollieNock';
import { seedBillableSubscriptions } from './billing';
import type { MollieFake } from '../../fakes/mollie/fake';
import { TEST_PUBLIC_URL, type TestApp } from './testApp';

/**
 * Billing as separate processes of the built CLI against the test's database and a Mollie fake
 * over HTTPS: the environment they run with, an account whose customers the fake knows, and the
 * check that each due period was charged exactly once.
 */
export function billingProcessEnv(t: TestApp, concurrency: number): Record<string, string> {
  return {
    NODE_ENV: 'test',
    DATABASE_URL: t.ctx.config.DATABASE_URL,
    APP_KEY: `base64:${t.ctx.config.appKey.toString('base64')}`,
    PUBLIC_URL: TEST_PUBLIC_URL,
    BILLING_CONCURRENCY: String(concurrency),
    // For these children only: the fake's certificate is self-signed.
    NODE_TLS_REJECT_UNAUTHORIZED: '0',
  };
}

/** What a run wrote on stderr besides Node's warning about the fake's self-signed certificate. */
export const problemsIn = (stderr: string) =>
  stderr.split('\n').filter((line) => line && !/NODE_TLS_REJECT_UNAUTHORIZED|--trace-warnings/.test(line));

/** An account on Mollie (the fake; `mollieApiUrl` when it is not served at Mollie's own address) with `subscriptions` due to bill. */
export async function billableAccountAtFake(
  t: TestApp,
  fake: MollieFake,
  mollieApiUrl: string | undefined,
  subscriptions: number,
): Promise<string> {
  const name = `Billing ${randomBase62(8)}`;
  const { accountId } = await t.newAccount(name);
  await setProviderSettings(t.ctx, name, { mollieApiKey: TEST_MOLLIE_KEY, allowLive: false, ...(mollieApiUrl ? { mollieApiUrl } : {}) });
  await seedBillableSubscriptions(t.ctx.db, accountId, subscriptions);
  // Mollie knows these customers (made there before these tests begin).
  for (const customer of await t.ctx.db('customers').where({ account_id: accountId })) {
    fake.customers.set(customer.provider_customer_id, { resource: 'customer', id: customer.provider_customer_id });
  }
  return accountId;
}

/** Every due period has one charge row, one payment here and one payment at Mollie, made with one key. */
export async function expectEachPeriodChargedOnce(t: TestApp, fake: MollieFake, accountId: string, periods: number): Promise<void> {
  const charges = await t.ctx.db('subscription_charges').where({ account_id: accountId });
  expect(charges).toHaveLength(periods);
  expect(charges.filter((charge) => charge.status !== 'charged')).toEqual([]);
  const payments = await t.ctx.db('payments').where({ account_id: accountId, purpose: 'charge' });
  expect(payments).toHaveLength(periods);
  expect(new Set(payments.map((payment) => payment.purpose_id)).size).toBe(periods);
  for (const payment of payments) expect(fake.paymentsWithReference(payment.id)).toHaveLength(1);
  expect(fake.payments.size).toBe(periods);
  const keys = fake.requests
    .filter((request) => request.method === 'POST' && request.path.startsWith('/v2/payments'))
    .map((request) => request.idempotencyKey);
  // A key may be sent again (a resumed charge), never a second key for one period.
  expect(new Set(keys).size).toBe(periods);
}

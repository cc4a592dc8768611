import type { Knex } from 'knex';
import { randomBase62 } from '../../src/ids';
import type { MandateRow } from '../../src/modules/mandates/repository';
import { subscriptionsRepository } from '../../src/modules/subscriptions/repository';
import { newSubscription } from '../../src/modules/subscriptions/service';
import { toDbDateTime } from '../../src/time';
import { cli } from '../cli/runInMemory';
import { seedCustomer } from './seed';
import type { TestApp } from './testApp';

/**
 * One billing run as of `date` (`--force`: tests bill days ahead of their clock), which must succeed;
 * answers what it printed.
 */
export async function billAsOf(ctx: TestApp['ctx'], date: string): Promise<string> {
  const run = await cli(ctx, 'billing', 'run', '--date', date, '--force');
  expect(run.code).toBe(0);
  return run.out.join('\n');
}

export interface Subscribed {
  customerId: string;
  mandateId: string;
  subscriptionId: string;
}

export interface SubscriptionRuleBody {
  amount: number;
  interval: string;
  interval_amount: number;
  day?: number;
  times?: number;
  invoice_rules?: Array<{ quantity: number; description: string; amount: number; vat?: string; ledger_account_id?: string }>;
}

/** A customer with a valid direct-debit mandate and a subscription on it, all made through the API. */
export async function subscribe(
  t: TestApp,
  token: string,
  options: { startDate?: string; rules?: SubscriptionRuleBody[]; email?: string } = {},
): Promise<Subscribed> {
  const customer = await t
    .as(token)
    .post('/api/v2/customers', { first_name: 'Anna', last_name: 'de Vries', email: options.email ?? 'anna@example.nl' });
  if (customer.status !== 201) throw new Error(`customer: ${customer.status} ${JSON.stringify(customer.body)}`);
  const mandate = await t
    .as(token)
    .post(`/api/v2/customers/${customer.body.id}/mandates`, { consumer_name: 'A. de Vries', consumer_account: 'NL91ABNA0417164300' });
  if (mandate.status !== 201) throw new Error(`mandate: ${mandate.status} ${JSON.stringify(mandate.body)}`);
  const subscription = await t.as(token).post('/api/v2/subscriptions', {
    name: 'Coffee box',
    customer_id: customer.body.id,
    provider_profile_id: 'pfl_test123456',
    provider_mandate_id: mandate.body.id,
    start_date: options.startDate ?? '2026-12-01',
    rules: options.rules ?? [{ amount: 12.5, interval: 'month', interval_amount: 1 }],
  });
  if (subscription.status !== 201) throw new Error(`subscription: ${subscription.status} ${JSON.stringify(subscription.body)}`);
  return { customerId: customer.body.id, mandateId: mandate.body.id, subscriptionId: subscription.body.id };
}

/**
 * `count` subscriptions billed monthly from `startDate`, each with its own customer (known at the
 * provider as `cst_…`) and a valid direct-debit mandate, written straight into the database with the
 * service's own row builder: for fault tests and the benchmark, where the provider is a fake.
 */
export async function seedBillableSubscriptions(
  db: Knex,
  accountId: string,
  count: number,
  options: { startDate?: string; amount?: number; now?: Date } = {},
): Promise<string[]> {
  const now = options.now ?? new Date('2026-11-21T10:00:00Z');
  const stamp = toDbDateTime(now);
  const ids: string[] = [];
  for (let index = 0; index < count; index += 1) {
    const customer = await seedCustomer(db, accountId, {
      provider_customer_id: `cst_${randomBase62(10)}`,
      email: `customer${index}@example.nl`,
    });
    const mandate: MandateRow = {
      id: `mdt_${randomBase62(10)}`,
      account_id: accountId,
      customer_id: customer.id,
      method: 'directdebit',
      status: 'valid',
      consumer_name: 'A. de Vries',
      consumer_account: 'NL91ABNA0417164300',
      consumer_bic: null,
      card_holder: null,
      card_number: null,
      card_expiry_date: null,
      card_label: null,
      card_fingerprint: null,
      mandate_reference: `REF-${randomBase62(10)}`,
      custom_reference: false,
      signature_date: '2026-11-01',
      revoked_at: null,
      created_at: stamp,
      updated_at: stamp,
    };
    await db('mandates').insert(mandate);
    const { row, rules, invoiceRules } = newSubscription(
      { id: accountId },
      {
        name: `Coffee box ${index}`,
        customer_id: customer.id,
        provider_profile_id: 'pfl_test123456',
        provider_mandate_id: mandate.id,
        start_date: options.startDate ?? '2026-12-01',
        rules: [{ amount: options.amount ?? 1250, interval: 'month', interval_amount: 1 }],
      },
      mandate,
      now,
    );
    await db.transaction((trx) => subscriptionsRepository.insertWithRules(trx, row, rules, invoiceRules));
    ids.push(row.id);
  }
  return ids;
}

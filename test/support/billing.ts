import type { TestApp } from './testApp';

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
export async function subscribe(t: TestApp, token: string, options: { startDate?: string; rules?: SubscriptionRuleBody[]; email?: string } = {}): Promise<Subscribed> {
  const customer = await t.as(token).post('/api/v2/customers', { first_name: 'Anna', last_name: 'de Vries', email: options.email ?? 'anna@example.nl' });
  if (customer.status !== 201) throw new Error(`customer: ${customer.status} ${JSON.stringify(customer.body)}`);
  const mandate = await t.as(token).post(`/api/v2/customers/${customer.body.id}/mandates`, { consumer_name: 'A. de Vries', consumer_account: 'NL91ABNA0417164300' });
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

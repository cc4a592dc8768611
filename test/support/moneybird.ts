import type { TestApp } from './testApp';
import { cliWithStdin } from '../cli/runInMemory';
import type { MoneybirdFake } from './moneybirdFake';

/** Connects the account to the fake's administration (drafts unless `send`). */
export async function connectToFake(t: TestApp, fake: MoneybirdFake, accountName: string, send = false): Promise<void> {
  const args = ['accounts', 'set-bookkeeping', 'moneybird', '--account', accountName, '--administration', fake.administrationId];
  const result = await cliWithStdin(t.ctx, `${fake.token}\n`, ...args, '--token', '-', ...(send ? ['--send-invoices'] : []));
  if (result.code !== 0) throw new Error(`connect: ${result.err.join('\n')}`);
}

export interface InvoiceRuleBody {
  quantity: number;
  description: string;
  amount: number;
  vat: string;
  ledger_account_id?: string;
}

/** A customer, a mandate and a monthly subscription of 1 December with these invoice rules, through the API. */
export async function subscribeWithStyle(
  t: TestApp,
  token: string,
  style: { workflow_id?: string; docstyle_id?: string },
  invoiceRules: InvoiceRuleBody[] = [],
  amount = 12.5,
): Promise<{ status: number; body: Record<string, unknown>; customerId: string }> {
  const customer = await t.as(token).post('/api/v2/customers', { first_name: 'Anna', last_name: 'de Vries', email: 'anna@example.nl' });
  if (customer.status !== 201) throw new Error(`customer: ${customer.status}`);
  const mandate = await t
    .as(token)
    .post(`/api/v2/customers/${customer.body.id}/mandates`, { consumer_name: 'A. de Vries', consumer_account: 'NL91ABNA0417164300' });
  if (mandate.status !== 201) throw new Error(`mandate: ${mandate.status}`);
  const res = await t.as(token).post('/api/v2/subscriptions', {
    name: 'Coffee box',
    customer_id: customer.body.id,
    provider_profile_id: 'pfl_test123456',
    provider_mandate_id: mandate.body.id,
    start_date: '2026-12-01',
    ...style,
    rules: [{ amount, interval: 'month', interval_amount: 1, ...(invoiceRules.length ? { invoice_rules: invoiceRules } : {}) }],
  });
  return { status: res.status, body: res.body as Record<string, unknown>, customerId: customer.body.id as string };
}

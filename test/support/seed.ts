import type { Knex } from 'knex';
import { newId, randomBase62 } from '../../src/ids';
import type { CustomerRow } from '../../src/modules/customers/repository';
import type { FollowUpRow } from '../../src/modules/follow-ups/repository';
import type { PaymentLinkRow } from '../../src/modules/links/repository';
import type { OrderLineRow, OrderRow } from '../../src/modules/orders/repository';
import type { ProductRow } from '../../src/modules/products/repository';
import type { SubscriptionRow, SubscriptionRuleRow } from '../../src/modules/subscriptions/repository';
import type { OutboundEventRow } from '../../src/events/repository';

/**
 * Rows written straight into the database, for resources the API cannot create (yet): they arrive
 * from the shop sync, the billing run and the follow-up job. Every helper returns the row it wrote.
 */

/** 10:00 UTC on the test clock's first day: 11:00 in Amsterdam. */
export const SEEDED_AT = '2026-11-21 10:00:00';

const stamps = { created_at: SEEDED_AT, updated_at: SEEDED_AT };

export async function seedCustomer(db: Knex, accountId: string, overrides: Partial<CustomerRow> = {}): Promise<CustomerRow> {
  const row: CustomerRow = {
    id: newId('cus'),
    account_id: accountId,
    number: null,
    first_name: 'Anna',
    last_name: 'de Vries',
    email: 'anna@example.nl',
    phone: null,
    organization_name: null,
    address: null,
    postal_code: null,
    city: null,
    country: 'NL',
    vat_number: null,
    locale: 'nl',
    provider_customer_id: null,
    ...stamps,
    ...overrides,
  };
  await db('customers').insert(row);
  return row;
}

export async function seedSubscription(
  db: Knex,
  accountId: string,
  customerId: string,
  overrides: Partial<SubscriptionRow> = {},
): Promise<{ subscription: SubscriptionRow; rule: SubscriptionRuleRow }> {
  const subscription: SubscriptionRow = {
    id: newId('sub'),
    account_id: accountId,
    customer_id: customerId,
    name: 'Coffee every month',
    status: 'active',
    start_date: '2026-12-01',
    currency: 'EUR',
    provider_mandate_id: 'mdt_seeded0001',
    provider_profile_id: 'pfl_seeded0001',
    next_payment_at: '2026-12-01',
    next_amount: 1250,
    last_payment_created_at: null,
    resume_at: null,
    next_charge_number: 1,
    next_charge_date: '2026-12-01',
    cancel_at: null,
    workflow_id: null,
    docstyle_id: null,
    ...stamps,
    ...overrides,
  };
  await db('subscriptions').insert(subscription);
  const rule: SubscriptionRuleRow = {
    id: newId('rul'),
    account_id: accountId,
    subscription_id: subscription.id,
    position: 0,
    amount: 1250,
    currency: 'EUR',
    interval: 'month',
    interval_amount: 1,
    day: 1,
    times: null,
    times_done: 0,
  };
  await db('subscription_rules').insert(rule);
  return { subscription, rule };
}

export async function seedProduct(db: Knex, accountId: string, overrides: Partial<ProductRow> = {}): Promise<ProductRow> {
  const row: ProductRow = {
    id: newId('prd'),
    account_id: accountId,
    type: 'once',
    name: 'Coffee beans 1 kg',
    amount: 1995,
    currency: 'EUR',
    vat_basis_points: 900,
    interval: null,
    interval_value: null,
    times: null,
    shop_product_id: null,
    deleted_at: null,
    ...stamps,
    ...overrides,
  };
  await db('products').insert(row);
  return row;
}

export type SeedLine = Pick<OrderLineRow, 'product_id' | 'quantity' | 'next_order'>;

/** An order and its lines, in the given order. */
export async function seedOrder(
  db: Knex,
  accountId: string,
  lines: SeedLine[],
  overrides: Partial<OrderRow> = {},
): Promise<{ order: OrderRow; lines: OrderLineRow[] }> {
  const order: OrderRow = {
    id: newId('ord'),
    account_id: accountId,
    status: 'paid',
    total_amount: 4485,
    currency: 'EUR',
    order_number: '1001',
    first_name: null,
    last_name: null,
    email: null,
    organization_name: null,
    phone: null,
    address: null,
    postal_code: null,
    city: null,
    country: null,
    vat_number: null,
    carrier: null,
    tracktrace: null,
    shop_order_id: null,
    shop_order_number: null,
    subscription_id: null,
    subscription_status: null,
    cancel_subscription_at: null,
    origin_key: null,
    parent_order_id: null,
    ...stamps,
    ...overrides,
  };
  await db('orders').insert(order);
  const lineRows = lines.map((line, position): OrderLineRow => ({
    id: newId('orl'),
    account_id: accountId,
    order_id: order.id,
    position,
    subscription_id: null,
    ...line,
  }));
  if (lineRows.length) await db('order_lines').insert(lineRows);
  return { order, lines: lineRows };
}

export async function seedPaymentLink(db: Knex, accountId: string, overrides: Partial<PaymentLinkRow> = {}): Promise<PaymentLinkRow> {
  const row: PaymentLinkRow = {
    id: newId('lnk'),
    account_id: accountId,
    customer_id: null,
    subscription_id: null,
    type: 'payment',
    status: 'open',
    active: true,
    description: 'Invoice 2026-001',
    currency: 'EUR',
    amount: 2500,
    first_amount: null,
    interval: null,
    times: null,
    trial_interval: null,
    reminder_at: null,
    redirect_url_paid: null,
    redirect_url_failed: null,
    expires_at: null,
    rules: null,
    product_id: null,
    reminder_sent_at: null,
    paid_at: null,
    ...stamps,
    ...overrides,
  };
  await db('payment_links').insert(row);
  return row;
}

export async function seedFollowUp(db: Knex, accountId: string, overrides: Partial<FollowUpRow> = {}): Promise<FollowUpRow> {
  const row: FollowUpRow = {
    id: newId('fu'),
    account_id: accountId,
    customer_id: null,
    subscription_id: null,
    order_id: null,
    payment_id: null,
    type: 'retry',
    status: 'pending',
    description: 'Coffee every month, December',
    amount: 1250,
    currency: 'EUR',
    provider_profile_id: null,
    provider_payment_id: null,
    reason: null,
    reason_code: null,
    retries_done: 0,
    mails_sent: 0,
    next_retry_at: null,
    kind: 'failure',
    origin_key: `failure-seeded-${randomBase62(12)}`,
    stage: 'done',
    link_id: null,
    resolved_at: null,
    ...stamps,
    ...overrides,
  };
  await db('follow_ups').insert(row);
  return row;
}

/** An event in the outbox, about no payment (as account events are). */
export async function seedOutboundEvent(db: Knex, accountId: string, overrides: Partial<OutboundEventRow> = {}): Promise<OutboundEventRow> {
  const row: OutboundEventRow = {
    id: newId('evt'),
    account_id: accountId,
    payment_id: null,
    resource_id: 'sub_seeded',
    event: 'subscription.updated',
    payload: '{}',
    url: 'https://hooks.example/rps',
    status: 'pending',
    attempts: 0,
    next_attempt_at: SEEDED_AT,
    last_attempt_at: null,
    last_status_code: null,
    last_error: null,
    delivered_at: null,
    created_at: SEEDED_AT,
    ...overrides,
  };
  await db('outbound_events').insert(row);
  return row;
}

/** Runs `fn` and counts the SQL statements it sent, to show a list costs the same for 1 row or 15. */
export async function countQueries(db: Knex, fn: () => Promise<unknown>): Promise<number> {
  let count = 0;
  const onQuery = () => {
    count += 1;
  };
  db.on('query', onQuery);
  try {
    await fn();
  } finally {
    db.off('query', onQuery);
  }
  return count;
}

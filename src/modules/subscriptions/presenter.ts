import type { Knex } from 'knex';
import type { Config } from '../../config';
import type { AppContext } from '../../context';
import { formatCents, formatNullableCents } from '../../money';
import { formatDate, formatDateTime, formatNullableDate, formatNullableDateTime } from '../../time';
import { presentCustomer } from '../customers/presenter';
import { customersRepository } from '../customers/repository';
import { subscriptionsRepository, type SubscriptionRow, type SubscriptionRuleRow } from './repository';
import type { NestedSubscriptionResponse, SubscriptionResponse, SubscriptionRuleResponse } from './schemas';

type Zone = Pick<Config, 'APP_TIMEZONE'>;

function presentRule(rule: SubscriptionRuleRow): SubscriptionRuleResponse {
  return {
    id: rule.id,
    amount: formatCents(rule.amount),
    currency: rule.currency,
    interval: rule.interval,
    interval_amount: rule.interval_amount,
    day: rule.day,
    times_done: rule.times_done,
    times: rule.times,
  };
}

export function presentNestedSubscription(row: SubscriptionRow, rules: SubscriptionRuleRow[], zone: Zone): NestedSubscriptionResponse {
  return {
    id: row.id,
    name: row.name,
    status: row.status,
    start_date: formatDate(row.start_date),
    created_at: formatDateTime(row.created_at, zone.APP_TIMEZONE),
    provider_mandate_id: row.provider_mandate_id,
    provider_profile_id: row.provider_profile_id,
    next_payment_at: formatNullableDate(row.next_payment_at),
    next_amount: formatNullableCents(row.next_amount),
    last_payment_created_at: formatNullableDateTime(row.last_payment_created_at, zone.APP_TIMEZONE),
    resume_at: formatNullableDate(row.resume_at),
    cancel_at: formatNullableDate(row.cancel_at),
    ...(row.shop_subscription_id ? { shop_subscription_id: Number(row.shop_subscription_id) } : {}),
    ...(row.source && row.source_id ? { source: row.source, source_id: row.source_id } : {}),
    rules: rules.map(presentRule),
  };
}

function groupRules(rules: SubscriptionRuleRow[]): Map<string, SubscriptionRuleRow[]> {
  const bySubscription = new Map<string, SubscriptionRuleRow[]>();
  for (const rule of rules) {
    const list = bySubscription.get(rule.subscription_id) ?? [];
    list.push(rule);
    bySubscription.set(rule.subscription_id, list);
  }
  return bySubscription;
}

/** Subscriptions with rules and customer, for a whole page in three queries. */
export async function presentSubscriptions(
  db: Knex,
  zone: Zone,
  accountId: string,
  rows: SubscriptionRow[],
): Promise<SubscriptionResponse[]> {
  const rules = groupRules(
    await subscriptionsRepository.rulesOf(
      db,
      accountId,
      rows.map((row) => row.id),
    ),
  );
  const customers = await customersRepository.findMany(
    db,
    accountId,
    rows.map((row) => row.customer_id),
  );
  return rows.map((row) => {
    const customer = customers.get(row.customer_id);
    if (!customer) throw new Error(`Subscription ${row.id} has no customer ${row.customer_id}`);
    return { ...presentNestedSubscription(row, rules.get(row.id) ?? [], zone), customer: presentCustomer(customer, zone) };
  });
}

/**
 * Subscriptions by id as they are nested in links, follow-ups and orders (without their customer,
 * which the outer resource carries), for a whole page in two queries.
 */
export async function nestedSubscriptionsById(
  db: Knex,
  zone: Zone,
  accountId: string,
  ids: Array<string | null>,
): Promise<Map<string, NestedSubscriptionResponse>> {
  const wanted = ids.filter((id): id is string => id !== null);
  const rows = [...(await subscriptionsRepository.findMany(db, accountId, wanted)).values()];
  const rules = groupRules(
    await subscriptionsRepository.rulesOf(
      db,
      accountId,
      rows.map((row) => row.id),
    ),
  );
  return new Map(rows.map((row) => [row.id, presentNestedSubscription(row, rules.get(row.id) ?? [], zone)]));
}

/** One subscription as the API answers it (a lifecycle change's answer). */
export async function presentSubscription(ctx: AppContext, accountId: string, row: SubscriptionRow): Promise<SubscriptionResponse> {
  const [item] = await presentSubscriptions(ctx.db, ctx.config, accountId, [row]);
  if (item === undefined) throw new Error(`Presenting subscription ${row.id} gave nothing`);
  return item;
}

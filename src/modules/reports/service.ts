import type { AppContext } from '../../context';
import type { Account } from '../accounts/account';
import { formatCents } from '../../money';
import { followUpsRepository } from '../follow-ups/repository';
import { subscriptionsRepository, type RuleInterval, type SubscriptionRuleRow } from '../subscriptions/repository';
import type { SubscriptionSummaryResponse } from './schemas';

/*
 * The account's figures, read across modules (subscriptions and their rules, open follow-ups): a report sits
 * above what it reads, so that subscriptions need not count follow-ups, which are above them.
 */

/** How many of each unit a year has: a month is a twelfth of it, a week 52, a day 365 (the contract's figures). */
const UNITS_PER_YEAR: Record<RuleInterval, bigint> = { day: 365n, week: 52n, month: 12n, year: 1n };

function gcd(a: bigint, b: bigint): bigint {
  return b === 0n ? a : gcd(b, a % b);
}

/**
 * The rule a subscription charges now: the first in running order with charges left. A subscription whose rules are
 * all done has none (it is about to complete).
 */
function currentRules<Rule extends SubscriptionRuleRow>(rules: Rule[]): Rule[] {
  const current = new Map<string, Rule>();
  for (const rule of rules) {
    if (current.has(rule.subscription_id)) continue;
    if (rule.times === null || rule.times_done < rule.times) current.set(rule.subscription_id, rule);
  }
  return [...current.values()];
}

/**
 * Monthly recurring revenue in cents: each rule's amount per month (amount × units per year / (12 × n): month/n,
 * year/(12n), week×52/(12n), day×365/(12n)), summed as exact fractions and rounded half up once at the end, so
 * many small weekly amounts lose no cents.
 */
export function monthlyRecurringCents(rules: Array<Pick<SubscriptionRuleRow, 'amount' | 'interval' | 'interval_amount'>>): number {
  let numerator = 0n;
  let denominator = 1n;
  for (const rule of rules) {
    const addNumerator = BigInt(rule.amount) * UNITS_PER_YEAR[rule.interval];
    const addDenominator = 12n * BigInt(rule.interval_amount);
    numerator = numerator * addDenominator + addNumerator * denominator;
    denominator = denominator * addDenominator;
    const divisor = gcd(numerator < 0n ? -numerator : numerator, denominator) || 1n;
    numerator /= divisor;
    denominator /= divisor;
  }
  // Half up: floor((2 × numerator + denominator) / (2 × denominator)); amounts of active rules are never negative.
  return Number((2n * numerator + denominator) / (2n * denominator));
}

/** `GET /api/v2/subscription-summary`: the account's figures for the store's dashboard widget. */
export async function subscriptionSummary(ctx: AppContext, account: Account): Promise<SubscriptionSummaryResponse> {
  const [counts, rules, openFollowUps] = await Promise.all([
    subscriptionsRepository.countByStatus(ctx.db, account.id),
    subscriptionsRepository.rulesOfActive(ctx.db, account.id),
    followUpsRepository.countPending(ctx.db, account.id),
  ]);
  const running = currentRules(rules).map((rule) => ({ ...rule, amount: Number(rule.amount) }));
  return {
    active_subscriptions: counts.get('active') ?? 0,
    paused_subscriptions: counts.get('paused') ?? 0,
    monthly_recurring_revenue: formatCents(monthlyRecurringCents(running)),
    // Subscriptions are in euros only (the spec's one currency); the figure says so rather than leaving it implied.
    currency: running[0]?.subscription_currency ?? 'EUR',
    open_follow_ups: openFollowUps,
  };
}

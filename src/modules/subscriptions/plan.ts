import { formatDate } from '../../time';
import type { SubscriptionRow, SubscriptionRuleRow } from './repository';
import type { SchedulePlan } from './schedule';

/** A subscription's schedule as stored: its start date and its rules in running order. */
export function planOf(subscription: Pick<SubscriptionRow, 'start_date'>, rules: readonly SubscriptionRuleRow[]): SchedulePlan {
  return {
    startDate: formatDate(subscription.start_date),
    rules: [...rules]
      .sort((a, b) => a.position - b.position)
      .map((rule) => ({
        interval: rule.interval,
        interval_amount: rule.interval_amount,
        day: rule.day,
        amount: rule.amount,
        times: rule.times,
      })),
  };
}

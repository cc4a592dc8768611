import {
  addDays,
  addMonths,
  clampedDay,
  compareCalendarDates,
  formatCalendarDate,
  isoWeekday,
  parseCalendarDate,
  type CalendarDate,
} from '../../time/calendar';
import type { RuleInterval, SubscriptionRuleRow } from './repository';

/**
 * When a subscription rule charges. Pure date arithmetic on `Y-m-d` strings, shared by creation
 * (the first charge) and billing (every charge after it).
 *
 * `day` is the rule's effective day as stored: month and year rules charge on that day of the
 * month (clamped to the month's last day, so 31 → 30 April, 28/29 February); week rules on that
 * ISO weekday (Monday = 1); day rules ignore it (0).
 */
export type ScheduledRule = Pick<SubscriptionRuleRow, 'interval' | 'interval_amount' | 'day'>;

function parse(text: string): CalendarDate {
  const date = parseCalendarDate(text);
  if (!date) throw new Error(`Not a calendar date: ${text}`);
  return date;
}

/** The day a rule stores: the requested one, or (0 or absent) the start date's day of its kind. */
export function effectiveRuleDay(interval: RuleInterval, requestedDay: number | null | undefined, startDate: string): number {
  if (interval === 'day') return 0;
  if (requestedDay) return requestedDay;
  const start = parse(startDate);
  return interval === 'week' ? isoWeekday(start) : start.day;
}

/** The first charge: the first date on or after the start date that falls on the rule's day. */
export function firstChargeDate(rule: Pick<ScheduledRule, 'interval' | 'day'>, startDate: string): string {
  const start = parse(startDate);
  switch (rule.interval) {
    case 'day':
      return startDate;
    case 'week':
      return formatCalendarDate(addDays(start, (rule.day - isoWeekday(start) + 7) % 7));
    case 'month':
    case 'year': {
      // A year rule charges on its day in the start month (or the next), then every year.
      const inStartMonth = clampedDay(start.year, start.month, rule.day);
      const first = compareCalendarDates(inStartMonth, start) >= 0 ? inStartMonth : addMonths(start, 1, rule.day);
      return formatCalendarDate(first);
    }
  }
}

/** The charge after the one on `previous`: `interval_amount` units later, back on the rule's day. */
export function chargeDateAfter(rule: ScheduledRule, previous: string): string {
  const date = parse(previous);
  switch (rule.interval) {
    case 'day':
      return formatCalendarDate(addDays(date, rule.interval_amount));
    case 'week':
      return formatCalendarDate(addDays(date, 7 * rule.interval_amount));
    case 'month':
      return formatCalendarDate(addMonths(date, rule.interval_amount, rule.day));
    case 'year':
      return formatCalendarDate(addMonths(date, 12 * rule.interval_amount, rule.day));
  }
}

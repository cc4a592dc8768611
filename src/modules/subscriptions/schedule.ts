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

/** The period a charge on `dueDate` pays: from that date up to the day before the rule's next charge. */
export function chargePeriod(rule: ScheduledRule, dueDate: string): { start: string; end: string } {
  return { start: dueDate, end: formatCalendarDate(addDays(parse(chargeDateAfter(rule, dueDate)), -1)) };
}

/** A rule as the schedule needs it: when it charges, how much, how often. */
export interface PlannedRule extends ScheduledRule {
  amount: number; // cents
  times: number | null; // null: until cancelled
}

/** Everything a subscription's charges follow from. Nothing here depends on when billing ran. */
export interface SchedulePlan {
  startDate: string; // Y-m-d
  rules: readonly PlannedRule[];
}

/** Charge number `number` (1-based) of a subscription: its calendar date, amount and the rule it belongs to. */
export interface ScheduledCharge {
  number: number;
  date: string; // Y-m-d
  amount: number; // cents
  ruleIndex: number;
  /** Which charge of its rule this is (1-based), for `times_done`. */
  ofRule: number;
}

/** Charge `k` (0-based) of a rule whose first charge is on `first`: computed directly, so no rounding of one step carries into the next. */
function nthChargeOfRule(rule: ScheduledRule, first: string, k: number): string {
  if (k === 0) return first;
  const start = parse(first);
  switch (rule.interval) {
    case 'day':
      return formatCalendarDate(addDays(start, k * rule.interval_amount));
    case 'week':
      return formatCalendarDate(addDays(start, 7 * k * rule.interval_amount));
    case 'month':
      return formatCalendarDate(addMonths(start, k * rule.interval_amount, rule.day));
    case 'year':
      return formatCalendarDate(addMonths(start, 12 * k * rule.interval_amount, rule.day));
  }
}

/**
 * The start date of a schedule in which `done` charges lie before the one on `nextDate` (a date on
 * the rule's day): an imported subscription numbers its charges on from the source's count.
 */
export function startBeforeCharges(rule: ScheduledRule, nextDate: string, done: number): string {
  return nthChargeOfRule(rule, nextDate, -done);
}

/**
 * The start date of a subscription whose charge 1 is a first payment made on `paidDate` that paid
 * the first period (a link without a trial, a store checkout). It is chosen so that the schedule puts
 * charge 2 on the rule's first day on or after the end of that period (`paidDate` plus one
 * interval), as if charge 1 had been a regular charge: that is `paidDate` itself, except when
 * month-end clamping would put charge 2 a period later (paid 31 March, charging on the 30th: the
 * period ends 30 April, but from 31 March the rule's first day is 30 April, so charge 2 would be
 * 30 May). The start is then the rule's day one interval before charge 2, a day or two before
 * `paidDate`. `rule.day` is the effective day (see effectiveRuleDay, from `paidDate`).
 */
export function startOfPaidFirstPeriod(rule: ScheduledRule, paidDate: string): string {
  const periodEnd = chargeDateAfter({ ...rule, day: parse(paidDate).day }, paidDate);
  const secondCharge = firstChargeDate(rule, periodEnd);
  const firstOnRuleDay = nthChargeOfRule(rule, secondCharge, -1);
  return firstOnRuleDay < paidDate ? firstOnRuleDay : paidDate;
}

/**
 * Charge number `number` of the plan, or null when the plan has no such charge (every rule has run
 * its `times`). Rules run one after another: a rule starts when the period paid by the previous
 * rule's last charge ends, and charges on its own day from there.
 */
export function scheduledCharge(plan: SchedulePlan, number: number): ScheduledCharge | null {
  if (!Number.isInteger(number) || number < 1) throw new Error(`Charge numbers start at 1, not ${number}`);
  let ruleStart = plan.startDate;
  let before = 0; // charges of the rules before this one
  for (let ruleIndex = 0; ruleIndex < plan.rules.length; ruleIndex += 1) {
    const rule = plan.rules[ruleIndex] as PlannedRule;
    const first = firstChargeDate(rule, ruleStart);
    const k = number - before - 1;
    if (rule.times === null || k < rule.times) {
      return { number, date: nthChargeOfRule(rule, first, k), amount: rule.amount, ruleIndex, ofRule: k + 1 };
    }
    before += rule.times;
    ruleStart = chargeDateAfter(rule, nthChargeOfRule(rule, first, rule.times - 1));
  }
  return null;
}

/** The number of charges the plan has in all, or null when it runs until cancelled. */
export function totalCharges(plan: SchedulePlan): number | null {
  let total = 0;
  for (const rule of plan.rules) {
    if (rule.times === null) return null;
    total += rule.times;
  }
  return total;
}

/**
 * The charges from number `from` on that are due on or before `date`, in order. Bounded by
 * `limit` so a subscription left unbilled for years (a day rule) never builds one huge batch.
 */
export function chargesDueBy(plan: SchedulePlan, from: number, date: string, limit = 400): ScheduledCharge[] {
  const due: ScheduledCharge[] = [];
  for (let number = from; due.length < limit; number += 1) {
    const charge = scheduledCharge(plan, number);
    if (!charge || charge.date > date) break;
    due.push(charge);
  }
  return due;
}

/** How many charges of each rule lie before charge number `next` (charged or skipped: each took its place). */
export function timesDoneBefore(plan: SchedulePlan, next: number): number[] {
  let left = next - 1;
  return plan.rules.map((rule) => {
    const done = rule.times === null ? left : Math.min(left, rule.times);
    left -= done;
    return done;
  });
}

/** A period in which a subscription was paused; `until` is exclusive (null: until resumed). */
export interface PausePeriod {
  from: string; // Y-m-d
  until: string | null;
}

/**
 * What happens to a charge dated `date`: made, skipped (a paused period's charges are not made up
 * later), or never (on or after the cancellation date nothing is charged).
 */
export type ChargeFate = 'charge' | 'skip' | 'ended';

export function fateOf(date: string, pauses: readonly PausePeriod[], cancelAt: string | null): ChargeFate {
  if (cancelAt !== null && date >= cancelAt) return 'ended';
  const paused = pauses.some((pause) => pause.from <= date && (pause.until === null || date < pause.until));
  return paused ? 'skip' : 'charge';
}

/** How far ahead `nextCharged` looks for a charge that is not skipped before it gives up (a pause without end). */
const LOOKAHEAD = 400;

/** The next charge from number `from` on that will actually be made, or null (none left, cancelled, paused without end). */
export function nextCharged(
  plan: SchedulePlan,
  from: number,
  pauses: readonly PausePeriod[],
  cancelAt: string | null,
): ScheduledCharge | null {
  for (let number = from; number < from + LOOKAHEAD; number += 1) {
    const charge = scheduledCharge(plan, number);
    if (!charge) return null;
    const fate = fateOf(charge.date, pauses, cancelAt);
    if (fate === 'ended') return null;
    if (fate === 'charge') return charge;
  }
  return null;
}

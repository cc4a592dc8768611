import fc from 'fast-check';
import { dateAfterTrial } from '../../src/modules/links/trial';
import {
  effectiveRuleDay,
  firstChargeDate,
  scheduledCharge,
  startOfPaidFirstPeriod,
  type PlannedRule,
} from '../../src/modules/subscriptions/schedule';
import { addDays, formatCalendarDate, type IntervalUnit } from '../../src/time/calendar';

/**
 * A subscription started by a first payment that paid its first period: the payment is charge 1, and
 * charge 2 is where a regular charge one period later falls — the rule's first day on or after the
 * paid period's end, as the service dated it before the first payment counted as a charge.
 */
function secondChargeAsBefore(rule: PlannedRule, paidDate: string): string {
  const periodEnd = dateAfterTrial(paidDate, { count: rule.interval_amount, unit: rule.interval });
  return firstChargeDate(rule, periodEnd);
}

function ruleFor(interval: IntervalUnit, every: number, requestedDay: number | null, paidDate: string): PlannedRule {
  return { interval, interval_amount: every, day: effectiveRuleDay(interval, requestedDay, paidDate), amount: 995, times: null };
}

describe('startOfPaidFirstPeriod', () => {
  it.each([
    ['month', null, '2026-11-15', '2026-11-15', '2026-12-15', 'no day: the paid day'],
    ['month', 1, '2026-11-15', '2026-11-15', '2027-01-01', 'day 1: the first 1st after the paid month ends'],
    ['month', 30, '2027-03-31', '2027-03-30', '2027-04-30', 'day 30, paid on the 31st: the period ends 30 April'],
    ['month', 29, '2027-01-31', '2027-01-29', '2027-02-28', 'day 29, paid 31 January: the period ends 28 February'],
    ['month', null, '2027-01-31', '2027-01-31', '2027-02-28', 'no day, paid on the 31st: back to the 31st later'],
    ['week', 1, '2026-11-21', '2026-11-21', '2026-11-30', 'Mondays, paid on a Saturday'],
    ['year', null, '2028-02-29', '2028-02-29', '2029-02-28', 'a year from a leap day'],
  ] as Array<[IntervalUnit, number | null, string, string, string, string]>)(
    'When %s with day %s is paid on %s, then it starts %s and charge 2 is %s (%s)',
    (interval, day, paid, start, second) => {
      const rule = ruleFor(interval, 1, day, paid);
      expect(startOfPaidFirstPeriod(rule, paid)).toBe(start);
      expect(scheduledCharge({ startDate: start, rules: [rule] }, 2)?.date).toBe(second);
    },
  );

  it(
    'When any rule is paid on any day, then the start is on or before that day and charge 2 is one paid period later on the rule’s ' +
      'day',
    () => {
      fc.assert(
        fc.property(
          fc.integer({ min: 0, max: 4 * 366 }),
          fc.constantFrom<IntervalUnit>('day', 'week', 'month', 'year'),
          fc.integer({ min: 1, max: 4 }),
          fc.option(fc.integer({ min: 1, max: 31 }), { nil: null }),
          (offset, interval, every, requested) => {
            const paid = formatCalendarDate(addDays({ year: 2026, month: 1, day: 1 }, offset));
            const day = interval === 'week' && requested !== null ? ((requested - 1) % 7) + 1 : requested;
            const rule = ruleFor(interval, every, day, paid);
            const start = startOfPaidFirstPeriod(rule, paid);
            expect(start <= paid).toBe(true);
            expect(scheduledCharge({ startDate: start, rules: [rule] }, 2)?.date).toBe(secondChargeAsBefore(rule, paid));
          },
        ),
        { numRuns: 5000 },
      );
    },
  );
});

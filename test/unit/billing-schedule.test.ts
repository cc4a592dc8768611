import fc from 'fast-check';
import {
  chargesDueBy,
  effectiveRuleDay,
  fateOf,
  nextCharged,
  scheduledCharge,
  timesDoneBefore,
  totalCharges,
  type PlannedRule,
  type SchedulePlan,
} from '../../src/modules/subscriptions/schedule';
import { calendarDateIn } from '../../src/time';
import { addDays, formatCalendarDate, parseCalendarDate } from '../../src/time/calendar';
import type { RuleInterval } from '../../src/modules/subscriptions/repository';

/** A rule as the API stores it: day 0/absent resolved against the start date. */
function rule(
  startDate: string,
  interval: RuleInterval,
  amount: number,
  options: { every?: number; day?: number; times?: number } = {},
): PlannedRule {
  return {
    interval,
    interval_amount: options.every ?? 1,
    day: effectiveRuleDay(interval, options.day, startDate),
    amount,
    times: options.times ?? null,
  };
}

const datesOf = (plan: SchedulePlan, count: number) =>
  Array.from({ length: count }, (_, index) => scheduledCharge(plan, index + 1)?.date ?? null);

describe('the schedule: charge number → date and amount', () => {
  it.each<[string, string, RuleInterval, { every?: number; day?: number }, string[]]>([
    ['every day', '2026-12-30', 'day', {}, ['2026-12-30', '2026-12-31', '2027-01-01', '2027-01-02']],
    ['every 10 days over a leap day', '2028-02-20', 'day', { every: 10 }, ['2028-02-20', '2028-03-01', '2028-03-11', '2028-03-21']],
    ['every week on the start weekday', '2026-12-02', 'week', {}, ['2026-12-02', '2026-12-09', '2026-12-16', '2026-12-23']],
    [
      'every 2 weeks on Monday (ISO 1)',
      '2026-12-02',
      'week',
      { every: 2, day: 1 },
      ['2026-12-07', '2026-12-21', '2027-01-04', '2027-01-18'],
    ],
    ['every week on Sunday (ISO 7)', '2026-12-02', 'week', { day: 7 }, ['2026-12-06', '2026-12-13', '2026-12-20', '2026-12-27']],
    [
      'monthly on the 31st: 30-day months and February clamp, the 31st comes back',
      '2026-12-31',
      'month',
      {},
      ['2026-12-31', '2027-01-31', '2027-02-28', '2027-03-31', '2027-04-30', '2027-05-31'],
    ],
    ['monthly on the 30th in a leap year', '2028-01-30', 'month', {}, ['2028-01-30', '2028-02-29', '2028-03-30', '2028-04-30']],
    ['monthly on the 29th: February of a common year', '2027-01-29', 'month', {}, ['2027-01-29', '2027-02-28', '2027-03-29']],
    [
      'every 3 months on day 15, starting after the 15th',
      '2026-12-20',
      'month',
      { every: 3, day: 15 },
      ['2027-01-15', '2027-04-15', '2027-07-15', '2027-10-15'],
    ],
    ['yearly from a leap day', '2028-02-29', 'year', {}, ['2028-02-29', '2029-02-28', '2030-02-28', '2031-02-28', '2032-02-29']],
    ['yearly on day 1 from mid-month', '2026-12-15', 'year', { day: 1 }, ['2027-01-01', '2028-01-01', '2029-01-01']],
  ])('%s', (_, start, interval, options, expected) => {
    const plan = { startDate: start, rules: [rule(start, interval, 1000, options)] };
    expect(datesOf(plan, expected.length)).toEqual(expected);
  });

  it('When rules follow each other, then each starts where the previous one ended and charges its own amount and day', () => {
    const start = '2026-12-01';
    const plan: SchedulePlan = {
      startDate: start,
      rules: [
        rule(start, 'month', 100, { times: 2 }),
        rule(start, 'week', 250, { day: 5, times: 2 }),
        rule(start, 'year', 9900, { day: 10 }),
      ],
    };
    expect(Array.from({ length: 6 }, (_, index) => scheduledCharge(plan, index + 1))).toEqual([
      { number: 1, date: '2026-12-01', amount: 100, ruleIndex: 0, ofRule: 1 },
      { number: 2, date: '2027-01-01', amount: 100, ruleIndex: 0, ofRule: 2 },
      // the month paid on 1 January ends 1 February: weekly on Fridays from there
      { number: 3, date: '2027-02-05', amount: 250, ruleIndex: 1, ofRule: 1 },
      { number: 4, date: '2027-02-12', amount: 250, ruleIndex: 1, ofRule: 2 },
      // the week paid on 12 February ends the 19th: yearly on the 10th from there (10 March)
      { number: 5, date: '2027-03-10', amount: 9900, ruleIndex: 2, ofRule: 1 },
      { number: 6, date: '2028-03-10', amount: 9900, ruleIndex: 2, ofRule: 2 },
    ]);
    expect(totalCharges(plan)).toBeNull();
  });

  it('When every rule has a number of times, then the schedule ends after their sum', () => {
    const plan = {
      startDate: '2026-12-01',
      rules: [rule('2026-12-01', 'month', 100, { times: 2 }), rule('2026-12-01', 'month', 200, { times: 1 })],
    };
    expect(totalCharges(plan)).toBe(3);
    expect(scheduledCharge(plan, 3)).toMatchObject({ date: '2027-02-01', amount: 200 });
    expect(scheduledCharge(plan, 4)).toBeNull();
    expect(timesDoneBefore(plan, 1)).toEqual([0, 0]);
    expect(timesDoneBefore(plan, 3)).toEqual([2, 0]);
    expect(timesDoneBefore(plan, 4)).toEqual([2, 1]);
  });

  it('When a link had a trial, then the subscription starts after it and the first regular charge moves with it', () => {
    // A link paid on 21 November with a 14-day trial: the subscription starts on 5 December.
    const paid = parseCalendarDate('2026-11-21');
    const start = formatCalendarDate(addDays(paid as NonNullable<typeof paid>, 14));
    const plan = { startDate: start, rules: [rule(start, 'month', 1500)] };
    expect(datesOf(plan, 2)).toEqual(['2026-12-05', '2027-01-05']);
  });

  it('When a week rule crosses a daylight saving change, then it stays on its weekday, and a run at 06:00 local bills that day', () => {
    const plan = { startDate: '2027-03-22', rules: [rule('2027-03-22', 'week', 500)] };
    expect(datesOf(plan, 3)).toEqual(['2027-03-22', '2027-03-29', '2027-04-05']); // Mondays around 28 March
    // 06:00 in Amsterdam is 05:00 UTC before the change and 04:00 UTC after it: the same calendar day.
    expect(calendarDateIn(new Date('2027-03-22T05:00:00Z'), 'Europe/Amsterdam')).toBe('2027-03-22');
    expect(calendarDateIn(new Date('2027-03-29T04:00:00Z'), 'Europe/Amsterdam')).toBe('2027-03-29');
    expect(calendarDateIn(new Date('2026-10-26T05:00:00Z'), 'Europe/Amsterdam')).toBe('2026-10-26');
    // 23:30 UTC on the 28th is already the 29th in Amsterdam.
    expect(calendarDateIn(new Date('2027-03-28T23:30:00Z'), 'Europe/Amsterdam')).toBe('2027-03-29');
  });
});

describe('pauses and cancellation', () => {
  const plan = { startDate: '2026-12-01', rules: [rule('2026-12-01', 'month', 1000)] };

  it.each<[string, Array<{ from: string; until: string | null }>, string | null, string, ReturnType<typeof fateOf>]>([
    ['no pause, no cancellation', [], null, '2027-01-01', 'charge'],
    ['inside a pause', [{ from: '2026-12-15', until: '2027-02-15' }], null, '2027-01-01', 'skip'],
    ['on the day a pause starts', [{ from: '2027-01-01', until: null }], null, '2027-01-01', 'skip'],
    ['on the resume date (exclusive)', [{ from: '2026-12-15', until: '2027-01-01' }], null, '2027-01-01', 'charge'],
    ['after a pause without end', [{ from: '2026-12-15', until: null }], null, '2027-06-01', 'skip'],
    ['on the cancellation date', [], '2027-01-01', '2027-01-01', 'ended'],
    ['the day before the cancellation date', [], '2027-01-02', '2027-01-01', 'charge'],
  ])('%s', (_, pauses, cancelAt, date, fate) => {
    expect(fateOf(date, pauses, cancelAt)).toBe(fate);
  });

  it('When paused until a date, then the next charge made is the first on or after it; with no end, none', () => {
    expect(nextCharged(plan, 2, [{ from: '2026-12-10', until: '2027-02-15' }], null)).toMatchObject({ number: 4, date: '2027-03-01' });
    expect(nextCharged(plan, 2, [{ from: '2026-12-10', until: null }], null)).toBeNull();
    expect(nextCharged(plan, 2, [], '2027-03-01')).toMatchObject({ date: '2027-01-01' });
    expect(nextCharged(plan, 4, [], '2027-03-01')).toBeNull();
  });
});

/** Valid rules as the API accepts them. */
const ruleArbitrary = (start: string) =>
  fc
    .record({
      interval: fc.constantFrom<RuleInterval>('day', 'week', 'month', 'year'),
      every: fc.integer({ min: 1, max: 4 }),
      day: fc.integer({ min: 0, max: 31 }),
      times: fc.option(fc.integer({ min: 1, max: 5 }), { nil: undefined }),
      amount: fc.integer({ min: 1, max: 100_000 }),
    })
    .map(({ interval, every, day, times, amount }) => {
      const legalDay = interval === 'day' ? 0 : interval === 'week' ? day % 8 : day;
      return rule(start, interval, amount, { every, day: legalDay, times });
    });

const dateArbitrary = fc
  .integer({ min: 0, max: 3 * 365 })
  .map((offset) => formatCalendarDate(addDays({ year: 2026, month: 12, day: 1 }, offset)));

describe('property: billing on any sequence of dates makes exactly the schedule', () => {
  it('For any valid rules and any run dates, the charges planned are the schedule up to the last run, each once, none missed', () => {
    fc.assert(
      fc.property(
        dateArbitrary.chain((start) =>
          fc.record({ start: fc.constant(start), rules: fc.array(ruleArbitrary(start), { minLength: 1, maxLength: 3 }) }),
        ),
        fc.array(dateArbitrary, { minLength: 1, maxLength: 8 }),
        ({ start, rules }, runDates) => {
          const plan: SchedulePlan = { startDate: start, rules };
          const planned: Array<{ number: number; date: string; amount: number }> = [];
          let next = 1;
          // Runs come late, early, repeated and out of order (a retried old date): only the charge numbers decide.
          for (const date of runDates) {
            const due = chargesDueBy(plan, next, date, 10_000);
            planned.push(...due);
            next += due.length;
          }
          const lastRun = runDates.reduce((a, b) => (a > b ? a : b));
          const expected = [];
          for (let number = 1; ; number += 1) {
            const charge = scheduledCharge(plan, number);
            if (!charge || charge.date > lastRun) break;
            expected.push(charge);
          }
          // Whatever the order of the runs, once the latest date has run everything due by it is planned: each once, in order, as
          // scheduled.
          expect(planned).toEqual(expected);
          // Dates only move forward with the number.
          for (let index = 1; index < expected.length; index += 1) {
            expect((expected[index] as { date: string }).date >= (expected[index - 1] as { date: string }).date).toBe(true);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});

import fc from 'fast-check';
import { chargeDateAfter, effectiveRuleDay, firstChargeDate, type ScheduledRule } from '../../src/modules/subscriptions/schedule';
import { daysInMonth, isoWeekday, parseCalendarDate } from '../../src/time/calendar';

/** Charges from the first one on, as billing will walk them. */
function charges(rule: ScheduledRule, startDate: string, count: number): string[] {
  const dates = [firstChargeDate(rule, startDate)];
  while (dates.length < count) dates.push(chargeDateAfter(rule, dates[dates.length - 1] as string));
  return dates;
}

describe('effectiveRuleDay', () => {
  it('When a month or year rule has no day or day 0, then it takes the day of the month of the start date', () => {
    expect(effectiveRuleDay('month', undefined, '2026-11-21')).toBe(21);
    expect(effectiveRuleDay('month', 0, '2026-11-21')).toBe(21);
    expect(effectiveRuleDay('month', null, '2027-01-31')).toBe(31);
    expect(effectiveRuleDay('year', undefined, '2028-02-29')).toBe(29);
  });

  it('When a week rule has no day, then it takes the ISO weekday of the start date', () => {
    expect(effectiveRuleDay('week', undefined, '2026-11-21')).toBe(6); // a Saturday
    expect(effectiveRuleDay('week', 0, '2026-11-22')).toBe(7); // a Sunday
    expect(effectiveRuleDay('week', 0, '2026-11-23')).toBe(1); // a Monday
  });

  it('When a day is given, then it is kept; a day rule always stores 0', () => {
    expect(effectiveRuleDay('month', 5, '2026-11-21')).toBe(5);
    expect(effectiveRuleDay('week', 3, '2026-11-21')).toBe(3);
    expect(effectiveRuleDay('day', undefined, '2026-11-21')).toBe(0);
    expect(effectiveRuleDay('day', 0, '2026-11-21')).toBe(0);
  });
});

describe('firstChargeDate', () => {
  it.each([
    [21, '2026-11-21', '2026-11-21', 'the start date itself is on the day'],
    [25, '2026-11-21', '2026-11-25', 'the day is later in the start month'],
    [5, '2026-11-21', '2026-12-05', 'the day has passed in the start month'],
    [1, '2026-12-15', '2027-01-01', 'the day has passed in December'],
    [31, '2026-11-21', '2026-11-30', 'the start month has no 31st'],
    [31, '2026-12-31', '2026-12-31', 'the start month has a 31st'],
    [30, '2027-02-01', '2027-02-28', 'February of a common year is short'],
    [30, '2028-02-01', '2028-02-29', 'February of a leap year is short'],
    [29, '2028-02-29', '2028-02-29', 'the start is Leap Day'],
    [30, '2027-01-31', '2027-02-28', 'the day has passed and the next month is short'],
    [31, '2026-11-30', '2026-11-30', 'the clamped day is the start date'],
  ])('When a month rule has day %i and starts %s, then the first charge is %s (%s)', (day, start, expected) => {
    expect(firstChargeDate({ interval: 'month', day }, start)).toBe(expected);
  });

  it.each([
    [6, '2026-11-21', 'the start date is that weekday (a Saturday)'],
    [7, '2026-11-22', 'Sunday is the next day'],
    [1, '2026-11-23', 'Monday comes after the weekend'],
    [5, '2026-11-27', 'Friday is six days on'],
  ])('When a week rule has ISO day %i and starts on Saturday 2026-11-21, then the first charge is %s (%s)', (day, expected) => {
    expect(firstChargeDate({ interval: 'week', day }, '2026-11-21')).toBe(expected);
  });

  it('When a week rule starts at the end of the year, then the first charge can fall in the next year', () => {
    // 2026-12-31 is a Thursday.
    expect(firstChargeDate({ interval: 'week', day: 1 }, '2026-12-31')).toBe('2027-01-04');
  });

  it.each([
    [21, '2026-11-21', '2026-11-21'],
    [28, '2026-11-21', '2026-11-28'],
    [5, '2026-11-21', '2026-12-05'],
    [29, '2028-02-10', '2028-02-29'],
    [29, '2027-02-10', '2027-02-28'],
  ])('When a year rule has day %i and starts %s, then the first charge is %s', (day, start, expected) => {
    expect(firstChargeDate({ interval: 'year', day }, start)).toBe(expected);
  });

  it('When a day rule starts, then the first charge is the start date', () => {
    expect(firstChargeDate({ interval: 'day', day: 0 }, '2026-11-21')).toBe('2026-11-21');
  });

  it('When the start date is not a calendar date, then it throws', () => {
    expect(() => firstChargeDate({ interval: 'month', day: 1 }, '2026-02-30')).toThrow('Not a calendar date');
  });
});

describe('chargeDateAfter', () => {
  it('When a monthly rule is anchored on the 31st, then short months get their last day and long months the 31st again', () => {
    expect(charges({ interval: 'month', interval_amount: 1, day: 31 }, '2027-01-31', 6)).toEqual([
      '2027-01-31',
      '2027-02-28',
      '2027-03-31',
      '2027-04-30',
      '2027-05-31',
      '2027-06-30',
    ]);
    expect(chargeDateAfter({ interval: 'month', interval_amount: 1, day: 31 }, '2028-01-31')).toBe('2028-02-29');
  });

  it('When a rule runs every 2 or 3 months, then each charge is that many months on, across year ends', () => {
    expect(charges({ interval: 'month', interval_amount: 3, day: 15 }, '2026-11-15', 3)).toEqual([
      '2026-11-15',
      '2027-02-15',
      '2027-05-15',
    ]);
    expect(charges({ interval: 'month', interval_amount: 2, day: 30 }, '2026-12-30', 3)).toEqual([
      '2026-12-30',
      '2027-02-28',
      '2027-04-30',
    ]);
  });

  it('When a yearly rule is anchored on Leap Day, then common years get 28 February and leap years 29 February', () => {
    expect(charges({ interval: 'year', interval_amount: 1, day: 29 }, '2028-02-29', 5)).toEqual([
      '2028-02-29',
      '2029-02-28',
      '2030-02-28',
      '2031-02-28',
      '2032-02-29',
    ]);
  });

  it('When a rule runs every 2 years, then each charge is two years on in the same month', () => {
    expect(charges({ interval: 'year', interval_amount: 2, day: 5 }, '2026-11-21', 3)).toEqual(['2026-12-05', '2028-12-05', '2030-12-05']);
  });

  it('When a rule runs weekly or every 2 weeks, then each charge is 7 or 14 days on, on the same weekday', () => {
    expect(charges({ interval: 'week', interval_amount: 1, day: 1 }, '2026-12-20', 3)).toEqual(['2026-12-21', '2026-12-28', '2027-01-04']);
    expect(charges({ interval: 'week', interval_amount: 2, day: 5 }, '2026-11-21', 3)).toEqual(['2026-11-27', '2026-12-11', '2026-12-25']);
  });

  it('When a rule runs every n days, then each charge is n days on, counting Leap Day', () => {
    expect(chargeDateAfter({ interval: 'day', interval_amount: 1, day: 0 }, '2026-12-31')).toBe('2027-01-01');
    expect(chargeDateAfter({ interval: 'day', interval_amount: 10, day: 0 }, '2028-02-25')).toBe('2028-03-06');
    expect(chargeDateAfter({ interval: 'day', interval_amount: 10, day: 0 }, '2027-02-25')).toBe('2027-03-07');
  });

  it(
    'When any monthly rule is followed for 40 charges, then every charge is on its day clamped to the month, interval months ' + 'apart',
    () => {
      const start = fc.record({
        year: fc.integer({ min: 2026, max: 2040 }),
        month: fc.integer({ min: 1, max: 12 }),
        day: fc.integer({ min: 1, max: 28 }),
      });
      fc.assert(
        fc.property(start, fc.integer({ min: 1, max: 31 }), fc.integer({ min: 1, max: 12 }), (s, day, intervalAmount) => {
          const startDate = `${s.year}-${String(s.month).padStart(2, '0')}-${String(s.day).padStart(2, '0')}`;
          const texts = charges({ interval: 'month', interval_amount: intervalAmount, day }, startDate, 40);
          expect(texts[0] >= startDate).toBe(true);
          const months = texts.map((text) => {
            const date = parseCalendarDate(text);
            if (!date) throw new Error(`not a date: ${text}`);
            expect(date.day).toBe(Math.min(day, daysInMonth(date.year, date.month)));
            return date.year * 12 + date.month;
          });
          months.slice(1).forEach((month, index) => expect(month - (months[index] as number)).toBe(intervalAmount));
        }),
        { numRuns: 200 },
      );
    },
  );

  it('When any weekly rule is followed, then every charge falls on its ISO weekday', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 3650 }),
        fc.integer({ min: 1, max: 7 }),
        fc.integer({ min: 1, max: 4 }),
        (offset, day, intervalAmount) => {
          const startDate = new Date(Date.UTC(2026, 10, 21 + offset)).toISOString().slice(0, 10);
          for (const text of charges({ interval: 'week', interval_amount: intervalAmount, day }, startDate, 10)) {
            const date = parseCalendarDate(text);
            if (!date) throw new Error('not a date');
            expect(isoWeekday(date)).toBe(day);
          }
          expect(firstChargeDate({ interval: 'week', day }, startDate) >= startDate).toBe(true);
        },
      ),
      { numRuns: 200 },
    );
  });
});

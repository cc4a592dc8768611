import { lastFiring } from '../../src/jobs/cronFirings';

const AMSTERDAM = 'Europe/Amsterdam';
const last = (expression: string, now: string, timeZone = AMSTERDAM) =>
  lastFiring(expression, timeZone, new Date(now))?.toISOString() ?? null;

describe('lastFiring', () => {
  it('When the day’s time has passed, then it is today’s firing; just before it, yesterday’s; at it, itself', () => {
    expect(last('0 6 * * *', '2026-12-02T08:00:00Z')).toBe('2026-12-02T05:00:00.000Z');
    expect(last('0 6 * * *', '2026-12-02T04:59:59Z')).toBe('2026-12-01T05:00:00.000Z');
    expect(last('0 6 * * *', '2026-12-02T05:00:00Z')).toBe('2026-12-02T05:00:00.000Z');
  });

  it('When the expression is read in a zone, then its wall clock decides, in summer and in winter', () => {
    expect(last('0 6 * * *', '2026-07-02T08:00:00Z')).toBe('2026-07-02T04:00:00.000Z');
    expect(last('0 6 * * *', '2026-07-02T08:00:00Z', 'UTC')).toBe('2026-07-02T06:00:00.000Z');
  });

  it('When the time falls in the hour skipped as summer time starts, then it still passed that day, at 03:30 summer time', () => {
    // 28 March 2027: in Amsterdam 02:00 CET is followed by 03:00 CEST (01:00 UTC); 02:30 never shows.
    expect(last('30 2 * * *', '2027-03-28T00:59:00Z')).toBe('2027-03-27T01:30:00.000Z');
    expect(last('30 2 * * *', '2027-03-28T01:30:00Z')).toBe('2027-03-28T01:30:00.000Z');
    expect(last('30 2 * * *', '2027-03-28T03:00:00Z')).toBe('2027-03-28T01:30:00.000Z');
  });

  it('When the time is repeated as summer time ends, then its first pass counts, also while the clock reads the second', () => {
    // 25 October 2026: 02:00–03:00 is passed twice in Amsterdam, first in CEST, then in CET.
    expect(last('30 2 * * *', '2026-10-25T00:45:00Z')).toBe('2026-10-25T00:30:00.000Z');
    expect(last('30 2 * * *', '2026-10-25T01:10:00Z')).toBe('2026-10-25T00:30:00.000Z');
  });

  it('When the expression names weekdays or seconds, then node-cron’s own reading of them holds', () => {
    // Sunday 6 December 2026: working days only, so Friday.
    expect(last('0 6 * * 1-5', '2026-12-06T12:00:00Z')).toBe('2026-12-04T05:00:00.000Z');
    expect(last('15 0 6 * * *', '2026-12-02T08:00:00Z')).toBe('2026-12-02T05:00:15.000Z');
    // The last day of the month (L): 30 November.
    expect(last('0 6 L * *', '2026-12-02T08:00:00Z')).toBe('2026-11-30T05:00:00.000Z');
  });

  it('When the expression did not fire in the last eight days, then there is no firing to make up', () => {
    expect(last('0 6 1 * *', '2026-12-20T08:00:00Z')).toBeNull();
  });
});

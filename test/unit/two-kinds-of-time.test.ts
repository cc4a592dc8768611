import { dateFromIso, instantAtEpochMs, msAfter, msBefore, systemClock } from '../../src/time';
import { utcMidnightOf } from '../../src/time/calendar';
import { monotonicMs, stopwatch, wallClockMsForServerDates } from '../../src/time/elapsed';

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

describe('elapsed time', () => {
  it('When a stopwatch runs across a pause, then it reports whole ms of at least the pause', async () => {
    const timer = stopwatch();
    await pause(25);
    const elapsed = timer.elapsedMs();
    expect(Number.isInteger(elapsed)).toBe(true);
    // setTimeout may fire a ms early by the monotonic timer's reckoning, never many.
    expect(elapsed).toBeGreaterThanOrEqual(24);
  });

  it('When the monotonic timer is read twice, then the second reading is never earlier', () => {
    const first = monotonicMs();
    expect(monotonicMs()).toBeGreaterThanOrEqual(first);
  });

  it("When a server's date is compared, then the real wall clock is read, near the system clock", () => {
    expect(Math.abs(wallClockMsForServerDates() - systemClock.now().getTime())).toBeLessThan(1000);
  });
});

describe('business time arithmetic', () => {
  const noon = new Date('2024-02-29T12:00:00.000Z');

  it('When ms are added or taken off a time, then the instant moves by exactly that and the time given is left alone', () => {
    expect(msAfter(noon, 90 * 60 * 1000).toISOString()).toBe('2024-02-29T13:30:00.000Z');
    expect(msBefore(noon, 13 * 60 * 60 * 1000).toISOString()).toBe('2024-02-28T23:00:00.000Z');
    expect(noon.toISOString()).toBe('2024-02-29T12:00:00.000Z');
  });

  it("When a provider's ISO time is read, then its offset is honoured", () => {
    expect(dateFromIso('2024-05-01T10:00:00+02:00').toISOString()).toBe('2024-05-01T08:00:00.000Z');
    expect(dateFromIso('2024-05-01T10:00:00.123Z').getTime()).toBe(Date.UTC(2024, 4, 1, 10, 0, 0, 123));
  });

  it('When an instant is built from ms since 1970, then 0 is the epoch', () => {
    expect(instantAtEpochMs(0).toISOString()).toBe('1970-01-01T00:00:00.000Z');
  });

  it('When a calendar date is made ready for formatting, then it is its UTC midnight', () => {
    expect(utcMidnightOf('2024-12-31').toISOString()).toBe('2024-12-31T00:00:00.000Z');
    expect(new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeZone: 'UTC' }).format(utcMidnightOf('2024-12-31'))).toBe(
      '31 December 2024',
    );
  });
});

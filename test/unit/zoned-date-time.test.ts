import fc from 'fast-check';
import { formatDateTime, instantFromZonedDateTime, toDbDateTime } from '../../src/time';

const AMSTERDAM = 'Europe/Amsterdam';
const utc = (text: string) => instantFromZonedDateTime(text, AMSTERDAM)?.toISOString() ?? null;

describe('instantFromZonedDateTime', () => {
  it('When the wall time is in winter or summer, then the zone offset of that day applies', () => {
    expect(utc('2026-01-15 12:00:00')).toBe('2026-01-15T11:00:00.000Z');
    expect(utc('2026-07-15 12:00:00')).toBe('2026-07-15T10:00:00.000Z');
  });

  it('When the wall time is just before or after the spring change, then each keeps its own offset', () => {
    expect(utc('2026-03-29 01:59:59')).toBe('2026-03-29T00:59:59.000Z');
    expect(utc('2026-03-29 03:00:00')).toBe('2026-03-29T01:00:00.000Z');
  });

  it('When the wall time falls in the skipped hour, then it lands just after the gap', () => {
    expect(utc('2026-03-29 02:30:00')).toBe('2026-03-29T01:30:00.000Z');
  });

  it('When the wall time is repeated in autumn, then the first of the two is taken', () => {
    expect(utc('2026-10-25 02:30:00')).toBe('2026-10-25T00:30:00.000Z');
    expect(utc('2026-10-25 03:30:00')).toBe('2026-10-25T02:30:00.000Z');
  });

  it('When the text is not a real date-time, then null', () => {
    for (const text of ['2026-02-30 10:00:00', '2026-13-01 10:00:00', '2026-01-01 24:00:00', '2026-01-01T10:00:00', 'soon']) {
      expect(instantFromZonedDateTime(text, AMSTERDAM)).toBeNull();
    }
  });

  it('When the zone is UTC, then the wall time is the instant', () => {
    expect(instantFromZonedDateTime('2026-06-01 08:00:00', 'UTC')?.toISOString()).toBe('2026-06-01T08:00:00.000Z');
  });
});

describe('formatDateTime against Intl, any instant and zone', () => {
  const reference = (date: Date, timeZone: string) => {
    const parts = Object.fromEntries(
      new Intl.DateTimeFormat('en-GB', {
        timeZone,
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        second: '2-digit',
        hourCycle: 'h23',
      })
        .formatToParts(date)
        .map((part) => [part.type, part.value]),
    );
    return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}:${parts.second}`;
  };
  const zones = [
    'Europe/Amsterdam',
    'America/New_York',
    'Australia/Lord_Howe',
    'Asia/Kolkata',
    'America/St_Johns',
    'Pacific/Chatham',
    'UTC',
  ];

  it(
    'When a stored time is rendered (the offset remembered per quarter hour), then it is what Intl renders, also around ' + 'transitions',
    () => {
      fc.assert(
        fc.property(
          fc.integer({ min: Date.UTC(1990, 0, 1) / 1000, max: Date.UTC(2060, 0, 1) / 1000 }),
          fc.constantFrom(...zones),
          (seconds, zone) => {
            const date = new Date(seconds * 1000);
            expect(formatDateTime(toDbDateTime(date), zone)).toBe(reference(date, zone));
          },
        ),
        { numRuns: 5000 },
      );
      // Each second of the hours around Amsterdam's and Lord Howe's 2026 changes.
      for (const [zone, start] of [
        ['Europe/Amsterdam', Date.UTC(2026, 9, 25, 0, 30)],
        ['Europe/Amsterdam', Date.UTC(2026, 2, 29, 0, 30)],
        ['Australia/Lord_Howe', Date.UTC(2026, 3, 4, 14, 30)],
      ] as const) {
        for (let ms = start; ms < start + 2 * 3600_000; ms += 7_000) {
          const date = new Date(ms);
          expect(formatDateTime(toDbDateTime(date), zone)).toBe(reference(date, zone));
        }
      }
    },
  );
});

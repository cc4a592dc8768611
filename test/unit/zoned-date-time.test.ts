import { instantFromZonedDateTime } from '../../src/time';

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

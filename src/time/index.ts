/**
 * Times are UTC inside: stored as `YYYY-MM-DD HH:MM:SS` strings, which sort and compare correctly in
 * SQLite and map onto MySQL DATETIME without any driver time-zone conversion. They are rendered in
 * APP_TIMEZONE only at the API edge.
 */

export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

const pad = (value: number, width = 2) => String(value).padStart(width, '0');

/** A Date as the UTC `YYYY-MM-DD HH:MM:SS` string we store. */
export function toDbDateTime(date: Date): string {
  return (
    `${pad(date.getUTCFullYear(), 4)}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())} ` +
    `${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}`
  );
}

/** Parses a stored UTC `YYYY-MM-DD HH:MM:SS` string. */
export function fromDbDateTime(value: string): Date {
  return new Date(`${value.replace(' ', 'T').slice(0, 19)}Z`);
}

const partsFormatters = new Map<string, Intl.DateTimeFormat>();

function zonedParts(date: Date, timeZone: string): Record<string, string> {
  let formatter = partsFormatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-GB', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    partsFormatters.set(timeZone, formatter);
  }
  return Object.fromEntries(formatter.formatToParts(date).map((part) => [part.type, part.value]));
}

/** A stored UTC date-time rendered as `Y-m-d H:i:s` in the given zone (the API's date-time format). */
export function formatDateTime(stored: string, timeZone: string): string {
  const p = zonedParts(fromDbDateTime(stored), timeZone);
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}:${p.second}`;
}

export function formatNullableDateTime(stored: string | null, timeZone: string): string | null {
  return stored === null ? null : formatDateTime(stored, timeZone);
}

/** The calendar date (`Y-m-d`) that it is at this instant in the given zone. */
export function calendarDateIn(date: Date, timeZone: string): string {
  const p = zonedParts(date, timeZone);
  return `${p.year}-${p.month}-${p.day}`;
}

/** Stored DATE columns come back as `YYYY-MM-DD` (MySQL with dateStrings, SQLite text); normalise. */
export function formatDate(stored: string): string {
  return stored.slice(0, 10);
}

export function formatNullableDate(stored: string | null): string | null {
  return stored === null ? null : formatDate(stored);
}

/**
 * Times are UTC inside: stored as `YYYY-MM-DD HH:MM:SS` strings, which sort and compare correctly in
 * SQLite and map onto MySQL DATETIME without any driver time-zone conversion. They are rendered in
 * APP_TIMEZONE only at the API edge.
 */

export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** The instant `ms` milliseconds after `date` (a time the clock gave, or one stored or received). */
export function msAfter(date: Date, ms: number): Date {
  return new Date(date.getTime() + ms);
}

/** The instant `ms` milliseconds before `date` (a time the clock gave, or one stored or received). */
export function msBefore(date: Date, ms: number): Date {
  return new Date(date.getTime() - ms);
}

/** An ISO 8601 time a provider or a store sent (`2024-05-01T10:00:00+00:00`), as an instant. */
export function dateFromIso(text: string): Date {
  return new Date(text);
}

/**
 * An instant from ms since 1970 that the code worked out itself (a wall-clock minute walked back one at a
 * time, 1970 itself as "since the beginning"). Never the current time: that comes from the clock.
 */
export function instantAtEpochMs(ms: number): Date {
  return new Date(ms);
}

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

/**
 * The zone's offset from UTC in ms at an instant. Offsets change only at transitions, which fall on
 * quarter hours of UTC: one Intl call per zone and quarter hour, remembered, instead of one per
 * rendered time (a list page renders dozens).
 */
const QUARTER_HOUR_MS = 15 * 60 * 1000;
const offsets = new Map<string, number>();
function zoneOffsetMs(date: Date, timeZone: string): number {
  const key = `${timeZone}|${Math.floor(date.getTime() / QUARTER_HOUR_MS)}`;
  let offset = offsets.get(key);
  if (offset === undefined) {
    const p = zonedParts(date, timeZone);
    const wallClockAsUtc = Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), Number(p.hour), Number(p.minute), Number(p.second));
    offset = wallClockAsUtc - Math.floor(date.getTime() / 1000) * 1000;
    if (offsets.size >= 10_000) offsets.clear();
    offsets.set(key, offset);
  }
  return offset;
}

/** A stored UTC date-time rendered as `Y-m-d H:i:s` in the given zone (the API's date-time format). */
export function formatDateTime(stored: string, timeZone: string): string {
  const instant = fromDbDateTime(stored);
  return toDbDateTime(new Date(instant.getTime() + zoneOffsetMs(instant, timeZone)));
}

export function formatNullableDateTime(stored: string | null, timeZone: string): string | null {
  return stored === null ? null : formatDateTime(stored, timeZone);
}

const LOCAL_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;

/**
 * A wall-clock `Y-m-d H:i:s` in the given zone (the API's date-time format) as an instant; null when
 * it is not a valid date-time. A time that does not exist (the hour skipped when DST starts) is
 * read with the offset before the change, so it lands just after the gap; an ambiguous one (the hour
 * repeated when DST ends) is the first of the two.
 */
export function instantFromZonedDateTime(text: string, timeZone: string): Date | null {
  const match = LOCAL_DATE_TIME.exec(text);
  if (!match) return null;
  const [year, month, day, hour, minute, second] = match.slice(1).map(Number) as [number, number, number, number, number, number];
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return null;
  const asUtc = Date.UTC(year, month - 1, day, hour, minute, second);
  if (new Date(asUtc).getUTCDate() !== day) return null; // 31 April and the like
  const offsetAt = (instant: number) => {
    const p = zonedParts(new Date(instant), timeZone);
    return Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), Number(p.hour), Number(p.minute), Number(p.second)) - instant;
  };
  // Read with the offset a few hours earlier; when the offset changed in between, the offset after
  // the change holds if it reads back as the same wall time, else the time fell in the gap.
  const earlier = offsetAt(asUtc - 3 * 60 * 60 * 1000);
  const withEarlier = asUtc - earlier;
  const later = offsetAt(withEarlier);
  if (later === earlier) return new Date(withEarlier);
  const withLater = asUtc - later;
  return new Date(offsetAt(withLater) === later ? withLater : withEarlier);
}

/** The calendar date (`Y-m-d`) that it is at this instant in the given zone. */
export function calendarDateIn(date: Date, timeZone: string): string {
  const p = zonedParts(date, timeZone);
  return `${p.year}-${p.month}-${p.day}`;
}

/** Today as a calendar date in APP_TIMEZONE: the day billing, follow-ups and links decide by. */
export function todayIn(ctx: { clock: Clock; config: { APP_TIMEZONE: string } }): string {
  return calendarDateIn(ctx.clock.now(), ctx.config.APP_TIMEZONE);
}

/** Stored DATE columns come back as `YYYY-MM-DD` (MySQL with dateStrings, SQLite text); normalise. */
export function formatDate(stored: string): string {
  return stored.slice(0, 10);
}

export function formatNullableDate(stored: string | null): string | null {
  return stored === null ? null : formatDate(stored);
}

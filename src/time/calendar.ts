/**
 * Calendar arithmetic on `YYYY-MM-DD` dates. Dates carry no time zone: they are handled as UTC
 * midnights purely so the Date API can do the day counting.
 */

export interface CalendarDate {
  year: number;
  month: number; // 1..12
  day: number; // 1..31
}

const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Parses a strict `YYYY-MM-DD` that names a real day; null otherwise. */
export function parseCalendarDate(text: string): CalendarDate | null {
  const match = DATE_PATTERN.exec(text);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  return { year, month, day };
}

export function formatCalendarDate({ year, month, day }: CalendarDate): string {
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

export function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

function toUtc(date: CalendarDate): Date {
  return new Date(Date.UTC(date.year, date.month - 1, date.day));
}

function fromUtc(date: Date): CalendarDate {
  return { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() };
}

export function addDays(date: CalendarDate, days: number): CalendarDate {
  const utc = toUtc(date);
  utc.setUTCDate(utc.getUTCDate() + days);
  return fromUtc(utc);
}

/** The given day of the month, clamped to the month's last day (31 → 30 April, 28/29 February). */
export function clampedDay(year: number, month: number, day: number): CalendarDate {
  return { year, month, day: Math.min(day, daysInMonth(year, month)) };
}

/** Adds whole months, keeping `anchorDay` (clamped), so the 31st stays the 31st where it exists. */
export function addMonths(date: CalendarDate, months: number, anchorDay: number = date.day): CalendarDate {
  const index = date.year * 12 + (date.month - 1) + months;
  return clampedDay(Math.floor(index / 12), (index % 12) + 1, anchorDay);
}

/** ISO weekday: Monday = 1 … Sunday = 7. */
export function isoWeekday(date: CalendarDate): number {
  const weekday = toUtc(date).getUTCDay();
  return weekday === 0 ? 7 : weekday;
}

export function compareCalendarDates(a: CalendarDate, b: CalendarDate): number {
  return formatCalendarDate(a).localeCompare(formatCalendarDate(b));
}

/** Units in which products and subscription rules repeat. */
export const INTERVAL_UNITS = ['day', 'week', 'month', 'year'] as const;
export type IntervalUnit = (typeof INTERVAL_UNITS)[number];

/** The calendar day `days` after `date` (both `YYYY-MM-DD`); throws on a date that is not a day. */
export function daysAfter(date: string, days: number): string {
  const parsed = parseCalendarDate(date);
  if (!parsed) throw new Error(`Not a calendar date: ${date}`);
  return formatCalendarDate(addDays(parsed, days));
}

/**
 * A `YYYY-MM-DD` as its UTC midnight, only to hand to Intl.DateTimeFormat with `timeZone: 'UTC'` for
 * a date written out in words ("1 May 2024"); not an instant anything happens at.
 */
export function utcMidnightOf(date: string): Date {
  return new Date(`${date}T00:00:00Z`);
}

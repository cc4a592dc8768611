import { addDays, addMonths, formatCalendarDate, INTERVAL_UNITS, parseCalendarDate, type IntervalUnit } from '../../time/calendar';

/** `<number> <unit>` as links write a trial: `14 days`, `1 month`. Singular and plural units. */
export interface TrialInterval {
  count: number;
  unit: IntervalUnit;
}

const TRIAL_TEXT = /^([1-9]\d{0,2}) (day|week|month|year)s?$/;

export function parseTrialInterval(text: string): TrialInterval | null {
  const match = TRIAL_TEXT.exec(text.trim());
  if (!match) return null;
  const unit = match[2] as IntervalUnit;
  return INTERVAL_UNITS.includes(unit) ? { count: Number(match[1]), unit } : null;
}

/** The canonical text of a trial: `14 days`, `1 month`. */
export function formatTrialInterval({ count, unit }: TrialInterval): string {
  return `${count} ${unit}${count === 1 ? '' : 's'}`;
}

/** The calendar date `trial` after `date` (Y-m-d); a month from the 31st is the last day of a shorter month. */
export function dateAfterTrial(date: string, trial: TrialInterval | null): string {
  const start = parseCalendarDate(date);
  if (!start) throw new RangeError(`not a calendar date: ${date}`);
  if (!trial) return date;
  switch (trial.unit) {
    case 'day':
      return formatCalendarDate(addDays(start, trial.count));
    case 'week':
      return formatCalendarDate(addDays(start, trial.count * 7));
    case 'month':
      return formatCalendarDate(addMonths(start, trial.count));
    case 'year':
      return formatCalendarDate(addMonths(start, trial.count * 12));
  }
}

import type { AppContext } from '../../context';
import { ValidationError } from '../../errors';
import { email as emailField, intervalUnit } from '../../http/fields';
import { centsFromDecimalString } from '../../money';
import { calendarDateIn } from '../../time';
import { parseCalendarDate } from '../../time/calendar';
import { isValidIban, normalizeIban } from '../mandates/iban';
import { MANDATE_REFERENCE_MAX } from '../mandates/schemas';
import { effectiveRuleDay, firstChargeDate } from '../subscriptions/schedule';
import { parseCsv, type CsvRecord } from './csv';
import type { ImportCandidate, ImportSource } from './sources';

/** The columns of an import file (docs/moving-over.md); the first line names them, in any order. */
export const CSV_COLUMNS = [
  'reference',
  'signature_date',
  'iban',
  'account_holder',
  'first_name',
  'last_name',
  'email',
  'amount',
  'interval',
  'interval_amount',
  'day',
  'times',
  'times_done',
  'start',
  'description',
] as const;
type Column = (typeof CSV_COLUMNS)[number];
const REQUIRED: readonly Column[] = [
  'reference',
  'signature_date',
  'iban',
  'account_holder',
  'first_name',
  'last_name',
  'email',
  'amount',
  'interval',
  'start',
];

const SEPA_REFERENCE = /^[A-Za-z0-9 +?/\-:().,']+$/;
const WHOLE_NUMBER = /^\d{1,6}$/;
const isEmail = (text: string) => emailField().safeParse(text).success;

/** A row that cannot be read: the first field found wrong, and why. */
class BadField extends Error {
  constructor(
    readonly field: Column,
    message: string,
  ) {
    super(message);
  }
}

type Row = Record<Column, string>;

function date(row: Row, field: Column): string {
  if (!parseCalendarDate(row[field])) throw new BadField(field, `"${row[field]}" is not a date as YYYY-MM-DD.`);
  return row[field];
}

function wholeNumber(row: Row, field: Column, fallback: number | null, min: number): number | null {
  if (row[field] === '') return fallback;
  const value = WHOLE_NUMBER.test(row[field]) ? Number(row[field]) : NaN;
  if (!(value >= min)) throw new BadField(field, `"${row[field]}" is not a whole number of at least ${min}.`);
  return value;
}

function required(row: Row, field: Column): string {
  if (row[field] === '') throw new BadField(field, 'It is empty.');
  return row[field];
}

/** One line of the file as a candidate, or the first field that is wrong. */
function candidateOf(row: Row, line: number, today: string): ImportCandidate {
  const reference = row.reference;
  for (const field of REQUIRED) required(row, field);
  if (reference.length > MANDATE_REFERENCE_MAX || !SEPA_REFERENCE.test(reference)) {
    throw new BadField(
      'reference',
      `A SEPA mandate reference has at most ${MANDATE_REFERENCE_MAX} letters, digits, spaces and + ? / - : ( ) . , '`,
    );
  }
  const signatureDate = date(row, 'signature_date');
  if (signatureDate > today) throw new BadField('signature_date', `The mandate cannot be signed after today (${signatureDate}).`);
  const iban = normalizeIban(row.iban);
  if (!isValidIban(iban)) throw new BadField('iban', 'It is not a valid IBAN (its check digits do not match).');
  if (!isEmail(row.email)) throw new BadField('email', `"${row.email}" is not an e-mail address.`);
  const amount = centsFromDecimalString(row.amount.replace(',', '.'));
  if (amount === null || amount <= 0)
    throw new BadField('amount', `"${row.amount}" is not an amount above 0 with at most 2 decimals, such as 12.50.`);
  const interval = intervalUnit().safeParse(row.interval.toLowerCase());
  if (!interval.success) throw new BadField('interval', `"${row.interval}" is not an interval: day, week, month or year.`);
  const intervalAmount = wholeNumber(row, 'interval_amount', 1, 1) as number;
  const day = wholeNumber(row, 'day', null, 0);
  if (day !== null && interval.data === 'day' && day !== 0) throw new BadField('day', 'A daily schedule has no day: leave it empty.');
  if (day !== null && interval.data === 'week' && day > 7)
    throw new BadField('day', 'A weekly schedule charges on a weekday: 1 (Monday) to 7.');
  if (day !== null && day > 31) throw new BadField('day', 'A day of the month is 1 to 31.');
  const times = wholeNumber(row, 'times', null, 1);
  const timesDone = wholeNumber(row, 'times_done', 0, 0) as number;
  if (times !== null && timesDone >= times) throw new BadField('times_done', `All ${times} charges were made already.`);
  const start = date(row, 'start');
  if (start < today) throw new BadField('start', `The first charge here cannot be before today (${today}).`);
  const ruleDay = effectiveRuleDay(interval.data, day || null, start);
  return {
    sourceId: reference,
    line,
    customer: { firstName: row.first_name, lastName: row.last_name, email: row.email, locale: null, providerCustomerId: null },
    mandate: { kind: 'sepa', consumerName: row.account_holder, iban, signatureDate, reference },
    subscription: {
      amount,
      interval: interval.data,
      intervalAmount,
      day: ruleDay,
      times,
      timesDone,
      nextDate: firstChargeDate({ interval: interval.data, day: ruleDay }, start),
      description: row.description || `Subscription ${reference}`,
    },
  };
}

const failed = (sourceId: string, line: number, field: string, message: string): ImportCandidate => ({
  sourceId,
  line,
  customer: null,
  mandate: null,
  subscription: null,
  invalid: { field, message },
});

function rowOf(record: CsvRecord, header: string[]): Row {
  const row = Object.fromEntries(CSV_COLUMNS.map((column) => [column, ''])) as Row;
  header.forEach((name, index) => {
    if ((CSV_COLUMNS as readonly string[]).includes(name)) row[name as Column] = (record.fields[index] ?? '').trim();
  });
  return row;
}

const CSV_UNREADABLE = 'Could not read the CSV file';

/** The file's columns, lower case; a file whose first line lacks a required column is refused as a whole (422). */
export function csvHeaderOf(text: string): string[] {
  const [head] = parseCsv(text);
  const header = (head?.fields ?? []).map((name) => name.trim().toLowerCase());
  const missing = REQUIRED.filter((column) => !header.includes(column));
  if (missing.length) throw ValidationError.field(CSV_UNREADABLE, 'csv', `The first line names no column ${missing.join(', ')}.`);
  return header;
}

/**
 * A file of SEPA mandates signed on paper (or elsewhere) and their subscriptions, one per line,
 * keyed by the mandate reference. A bad line fails alone with its line number and field; a
 * reference seen on an earlier line fails on every later one.
 */
export function csvSource(text: string): ImportSource {
  return {
    name: 'csv',
    async *candidates(ctx: AppContext) {
      const today = calendarDateIn(ctx.clock.now(), ctx.config.APP_TIMEZONE);
      const header = csvHeaderOf(text);
      const [, ...records] = parseCsv(text);
      const seen = new Map<string, number>();
      for (const record of records) {
        if (record.fields.every((field) => field.trim() === '')) continue;
        const row = rowOf(record, header);
        const key = row.reference.toLowerCase();
        const earlier = seen.get(key);
        if (row.reference === '') {
          yield failed(`line ${record.line}`, record.line, 'reference', 'It is empty.');
        } else if (earlier !== undefined) {
          yield failed(`${row.reference} (line ${record.line})`, record.line, 'reference', `The reference is on line ${earlier} already.`);
        } else {
          seen.set(key, record.line);
          try {
            yield candidateOf(row, record.line, today);
          } catch (error) {
            if (!(error instanceof BadField)) throw error;
            yield failed(row.reference, record.line, error.field, error.message);
          }
        }
      }
    },
  };
}

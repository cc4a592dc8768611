import type { AppContext } from '../../context';
import { ValidationError } from '../../errors';
import { email as emailField, intervalUnit } from '../../validation/fields';
import { centsFromDecimalString } from '../../money';
import { calendarDateIn } from '../../time';
import { parseCalendarDate } from '../../time/calendar';
import { isValidIban, normalizeIban } from '../mandates/iban';
import { MANDATE_REFERENCE_MAX } from '../mandates/schemas';
import { effectiveRuleDay, firstChargeDate } from '../subscriptions/schedule';
import { CsvParser, type CsvRecord } from './csv';
import { textOf, type CsvBytes, type CsvEncoding } from './csvFile';
import { invoicedAtRate, vatRateOf, type ImportInvoicing } from './importVat';
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
  'vat_rate',
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

/**
 * The most characters a field may have: the size of the column it is stored in (customers' names and
 * e-mail, the mandate's account holder, the subscription's name: 191; the reference has its own rule).
 * Checked per field, so a value too long fails its row with its field — on MySQL it would otherwise
 * fail the database write.
 */
const FIELD_MAX: Partial<Record<Column, number>> = {
  account_holder: 191,
  first_name: 191,
  last_name: 191,
  email: 191,
  description: 191,
  iban: 64,
  amount: 32,
  interval: 16,
  vat_rate: 8,
};

/** The source id a failed row is reported under: the report's column holds 191 characters. */
const reportedId = (text: string) => [...text].slice(0, 191).join('');

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

/** The rate a row's amount includes: its `vat_rate` column, else the import's; neither: its invoices are not issued, saying why. */
function invoicingOf(row: Row, description: string, amount: number, importRate: string | null): ImportInvoicing {
  if (row.vat_rate !== '') {
    const rate = vatRateOf(row.vat_rate);
    if (rate === null) throw new BadField('vat_rate', `"${row.vat_rate}" is not a VAT percentage such as 21 or 9.`);
    return invoicedAtRate(description, amount, rate);
  }
  if (importRate !== null) return invoicedAtRate(description, amount, importRate);
  return { refusal: 'Imported from a CSV file without a VAT rate (its column vat_rate): the VAT its amount includes is not known' };
}

/** One line of the file as a candidate, or the first field that is wrong. */
function candidateOf(row: Row, line: number, today: string, importRate: string | null): ImportCandidate {
  const reference = row.reference;
  for (const field of REQUIRED) required(row, field);
  for (const [field, max] of Object.entries(FIELD_MAX) as Array<[Column, number]>) {
    const length = [...row[field]].length;
    if (length > max) throw new BadField(field, `It has ${length} characters; at most ${max} fit.`);
  }
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
  const description = row.description || `Subscription ${reference}`;
  const invoicing = invoicingOf(row, description, amount, importRate);
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
      description,
      invoicing,
    },
  };
}

const failed = (sourceId: string, line: number, field: string, message: string): ImportCandidate => ({
  sourceId: reportedId(sourceId),
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

/** How a CSV file is read: its encoding, and the VAT rate of rows that name none in a `vat_rate` column. */
export interface CsvOptions {
  encoding: CsvEncoding;
  vatRate: string | null;
}

/** The file's records as they are read: one piece of the file at a time, never the whole file. */
async function* recordsOf(bytes: CsvBytes, encoding: CsvEncoding): AsyncIterable<CsvRecord> {
  const parser = new CsvParser();
  for await (const text of textOf(bytes, encoding)) yield* parser.push(text);
  yield* parser.end();
}

/** The columns a first line names, lower case; refused as a whole (422) when it lacks a required one. */
function headerOf(record: CsvRecord | undefined): string[] {
  const header = (record?.fields ?? []).map((name) => name.trim().toLowerCase());
  const missing = REQUIRED.filter((column) => !header.includes(column));
  if (missing.length) throw ValidationError.field(CSV_UNREADABLE, 'csv', `The first line names no column ${missing.join(', ')}.`);
  return header;
}

/**
 * Reads the file once through before anything is imported (as a stream, in bounded pieces): a file
 * that is not UTF-8 (NotUtf8Error, naming the line) or whose first line lacks a required column is
 * refused as a whole (422), before a row is made.
 */
export async function checkCsvFile(bytes: CsvBytes, encoding: CsvEncoding): Promise<void> {
  let first = true;
  for await (const record of recordsOf(bytes, encoding)) {
    if (first) headerOf(record);
    first = false;
  }
  if (first) headerOf(undefined);
}

/**
 * A file of SEPA mandates signed on paper (or elsewhere) and their subscriptions, one per line,
 * keyed by the mandate reference, read as a stream (`bytes` is opened again for the run). A bad
 * line fails alone with its line number and field; a reference seen on an earlier line fails on
 * every later one. Check the file first (checkCsvFile).
 */
export function csvSource(bytes: CsvBytes, options: CsvOptions): ImportSource {
  return {
    name: 'csv',
    async *candidates(ctx: AppContext) {
      const today = calendarDateIn(ctx.clock.now(), ctx.config.APP_TIMEZONE);
      let header: string[] | null = null;
      // One key per reference read (not its row): what a file of any length keeps in memory.
      const seen = new Map<string, number>();
      for await (const record of recordsOf(bytes, options.encoding)) {
        if (header === null) {
          header = headerOf(record);
          continue;
        }
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
            yield candidateOf(row, record.line, today, options.vatRate);
          } catch (error) {
            if (!(error instanceof BadField)) throw error;
            yield failed(row.reference, record.line, error.field, error.message);
          }
        }
      }
    },
  };
}

import { z } from 'zod';
import { LOCALES } from '../i18n/locales';
import { CHARGED_CURRENCIES, centsFromNumber, formatCents } from '../money';
import { scaledInteger } from '../numbers/decimal';
import { parseCalendarDate, type IntervalUnit } from '../time/calendar';
import { ISO_COUNTRY_CODES } from './countries';

/**
 * Field schemas shared by the request bodies. Messages use `:attribute`, replaced by the field's
 * name in messages.ts.
 */

/** Empty strings count as absent, as in the original service (Laravel's ConvertEmptyStringsToNull). */
const emptyToNull = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? null : value);

/**
 * A string first, so a missing value reads "is required" rather than "the selected type is invalid";
 * the values are repeated as metadata so that OpenAPI still lists them.
 */
export const requiredEnum = <const T extends readonly [string, ...string[]]>(values: T) =>
  z
    .string()
    .pipe(z.enum(values))
    .meta({ enum: [...values] });

export const requiredText = (max = 191) => z.string().trim().min(1).max(max);

export const optionalText = (max = 191) => z.preprocess(emptyToNull, z.string().trim().max(max).nullable().optional());

export const email = () => z.string().trim().max(191).pipe(z.email());

export const optionalLocale = () => z.preprocess(emptyToNull, z.enum(LOCALES).nullable().optional());

export const optionalCountry = () =>
  z.preprocess(
    emptyToNull,
    z
      .string()
      .transform((code) => code.toUpperCase())
      .refine((code) => ISO_COUNTRY_CODES.has(code), 'The :attribute field must be an ISO 3166-1 alpha-2 country code.')
      .nullable()
      .optional(),
  );

const AT_MOST_TWO_DECIMALS = 'The :attribute field must have at most 2 decimals.';

/** The largest amount whose cents are still exact as a JavaScript number (and fit a BIGINT column). */
export const MAX_AMOUNT_CENTS = Number.MAX_SAFE_INTEGER;

/**
 * A currency the service keeps books in (CHARGED_CURRENCIES), refused naming those; whether the account's provider
 * takes it too is checked after parsing (providers/amountLimits.ts).
 */
export const currencyCode = () =>
  z.string().superRefine((code, ctx) => {
    if (!CHARGED_CURRENCIES.includes(code)) {
      ctx.addIssue({ code: 'custom', message: `The account cannot charge ${code}; it accepts: ${CHARGED_CURRENCIES.join(', ')}.` });
    }
  });

/**
 * A JSON number with at most two decimals, converted to integer cents. `sign` says which amounts
 * make sense: a charge is positive, a price may be free, an invoice line may be a discount.
 */
export const amountInCents = (sign: 'positive' | 'nonNegative' | 'any') =>
  z.number().transform((amount, ctx) => {
    // Beyond the safe integers cents are no longer exact: refused by size, not mistaken for a third decimal.
    if (Math.abs(amount) * 100 > MAX_AMOUNT_CENTS) {
      ctx.addIssue({ code: 'custom', message: `The :attribute field must be at most ${formatCents(MAX_AMOUNT_CENTS)}.` });
      return z.NEVER;
    }
    const cents = centsFromNumber(amount);
    if (cents === null) {
      ctx.addIssue({ code: 'custom', message: AT_MOST_TWO_DECIMALS });
      return z.NEVER;
    }
    if (sign === 'positive' && cents <= 0) {
      ctx.addIssue({ code: 'custom', message: 'The :attribute field must be greater than 0.' });
      return z.NEVER;
    }
    if (sign === 'nonNegative' && cents < 0) {
      ctx.addIssue({ code: 'custom', message: 'The :attribute field must be at least 0.' });
      return z.NEVER;
    }
    return cents;
  });

/**
 * A percentage 0..100 with at most two decimals, as hundredths of a percent (21.5 → 2150). Not
 * money, so not through the money helper; decided by decimal digits the same way.
 */
export const percentageInBasisPoints = () =>
  z
    .number()
    .min(0)
    .max(100)
    .transform((percentage, ctx) => {
      const basisPoints = scaledInteger(percentage, 2);
      if (basisPoints === null) {
        ctx.addIssue({ code: 'custom', message: AT_MOST_TWO_DECIMALS });
        return z.NEVER;
      }
      return basisPoints;
    });

/** A `Y-m-d` string naming a real calendar day. */
export const calendarDate = () =>
  z.string().refine((text) => parseCalendarDate(text) !== null, 'The :attribute field must be a valid date (Y-m-d).');

export const httpUrl = () =>
  z
    .string()
    .trim()
    .max(2048)
    .pipe(z.url({ protocol: /^https?$/ }));

export const positiveInteger = () => z.number().int().min(1);

/** DESIGN "product interval": the plural forms are accepted too and stored (and answered) singular. */
const INTERVAL_SPELLINGS = ['day', 'days', 'week', 'weeks', 'month', 'months', 'year', 'years'] as const;
const SINGULAR: Record<(typeof INTERVAL_SPELLINGS)[number], IntervalUnit> = {
  day: 'day',
  days: 'day',
  week: 'week',
  weeks: 'week',
  month: 'month',
  months: 'month',
  year: 'year',
  years: 'year',
};

/** An interval unit in either spelling, parsed to the singular; for products and subscription rules. */
export const intervalUnit = () => z.enum(INTERVAL_SPELLINGS).transform((spelling) => SINGULAR[spelling]);

/**
 * Money is an integer number of minor units (cents) inside. These are the only conversions:
 * JSON numbers in, decimal strings out.
 */

import { scaledInteger } from '../numbers/decimal';

export type Cents = number;

/** The currencies the service keeps books in (invoices, VAT, reports): what a provider takes beyond them is not charged. */
export const CHARGED_CURRENCIES: readonly string[] = ['EUR'];

/**
 * Converts a JSON number with at most two decimals to cents, exactly; null when it has more
 * decimals or its cents are outside the safe integers. Decided by the number's decimal digits, not
 * with a floating-point tolerance: a tolerance relative to the amount let 1000.001 through as
 * 1000.00. Serialiser noise such as 19.990000000000002 has more than two decimals and is refused.
 */
export function centsFromNumber(amount: number): Cents | null {
  return scaledInteger(amount, 2);
}

/**
 * A decimal string as the outside world sends money ("12.50", "1000", "-0.05": payment providers, WooCommerce)
 * to cents, exactly, without floating point; null when it is not such a string.
 */
export function centsFromDecimalString(value: string): Cents | null {
  const match = /^(-?)(\d{1,13})(?:\.(\d{1,2}))?$/.exec(value.trim());
  if (!match) return null;
  const cents = Number(match[2]) * 100 + Number((match[3] ?? '').padEnd(2, '0'));
  return match[1] && cents !== 0 ? -cents : cents;
}

/** Cents as a decimal string with exactly two decimals: 1250 → "12.50", -5 → "-0.05". */
export function formatCents(cents: Cents): string {
  const sign = cents < 0 ? '-' : '';
  const absolute = Math.abs(cents);
  return `${sign}${Math.floor(absolute / 100)}.${String(absolute % 100).padStart(2, '0')}`;
}

export function formatNullableCents(cents: Cents | null): string | null {
  return cents === null ? null : formatCents(cents);
}

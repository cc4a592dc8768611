/**
 * Money is an integer number of minor units (cents) inside. These are the only conversions:
 * JSON numbers in, decimal strings out.
 */

export type Cents = number;

/**
 * Converts a JSON number with at most two decimals to cents; null when it has more decimals or is
 * outside the safe range. Floating point is checked with a tolerance, so 0.1 + 0.2 style noise in a
 * client's serialiser (19.990000000000002) is not mistaken for a third decimal.
 */
export function centsFromNumber(amount: number): Cents | null {
  if (!Number.isFinite(amount)) return null;
  const scaled = amount * 100;
  const cents = Math.round(scaled);
  if (Math.abs(scaled - cents) > 1e-6 * Math.max(1, Math.abs(scaled))) return null;
  if (!Number.isSafeInteger(cents)) return null;
  return cents === 0 ? 0 : cents; // never -0
}

/**
 * A decimal string as the outside world sends money ("12.50", "1000", "-0.05": Mollie, WooCommerce)
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

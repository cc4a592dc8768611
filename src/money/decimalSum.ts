/**
 * Stores keep line subtotals and taxes with more decimals than cents when prices include tax
 * (WooCommerce: "8.26446281" + "1.73553719"), and our order lines keep them as the store gave them.
 * They are added exactly, then rounded once to cents, so a line costs what the buyer paid for it.
 */
const PLACES = 8;
const SCALE = 10n ** BigInt(PLACES);

function exact(value: unknown): bigint | null {
  if (typeof value !== 'string') return null;
  const match = /^(-?)(\d{1,13})(?:\.(\d{1,8})\d*)?$/.exec(value.trim());
  if (!match) return null;
  const units = BigInt(match[2] as string) * SCALE + BigInt((match[3] ?? '').padEnd(PLACES, '0'));
  return match[1] ? -units : units;
}

/** The sum of the store's decimal amounts in cents (half away from zero), or null when one of them is not an amount. */
export function centsOfSum(...values: unknown[]): number | null {
  let total = 0n;
  for (const value of values) {
    const units = exact(value);
    if (units === null) return null;
    total += units;
  }
  const perCent = SCALE / 100n;
  const negative = total < 0n;
  const absolute = negative ? -total : total;
  const cents = (absolute + perCent / 2n) / perCent;
  return Number(negative ? -cents : cents);
}

/**
 * Exact decimal scaling of JSON numbers, decided by the number's decimal digits rather than by
 * floating-point arithmetic with a tolerance.
 *
 * `String(n)` is the shortest decimal text that reads back as the same double; for a number parsed
 * from JSON that is the digits the client wrote (up to float precision). So 1000.001 is seen as
 * having three decimals however large it is, and 19.990000000000002 (a client's 0.1 + 0.2 style
 * noise) is seen as having fifteen.
 */

/** `[sign]digits[.digits][e±exponent]`: every shape `String(n)` gives for a finite number. */
const NUMBER_TEXT = /^(-?)(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/;

/**
 * `value × 10^decimals` as an exact integer; null when `value` has more than `decimals` decimals,
 * is not finite, or the result is beyond the safe integers. Never -0.
 */
export function scaledInteger(value: number, decimals: number): number | null {
  if (!Number.isFinite(value)) return null;
  const match = NUMBER_TEXT.exec(String(value));
  if (!match) return null;
  const [, sign, whole, fraction = '', exponent = '0'] = match;

  // value = digits × 10^power, with digits an integer written without trailing zeros.
  let digits = `${whole}${fraction}`.replace(/^0+/, '');
  let power = Number(exponent) - fraction.length + decimals;
  const trailingZeros = /0*$/.exec(digits)?.[0].length ?? 0;
  digits = digits.slice(0, digits.length - trailingZeros);
  power += trailingZeros;

  if (digits === '') return 0;
  if (power < 0) return null; // a digit below the wanted decimals
  // More than 16 digits is past MAX_SAFE_INTEGER (9007199254740991); checked before padding so a
  // huge exponent (1e+300) never builds a huge string.
  if (digits.length + power > 16) return null;
  const scaled = Number(digits + '0'.repeat(power));
  if (!Number.isSafeInteger(scaled)) return null;
  return sign === '-' ? -scaled : scaled;
}

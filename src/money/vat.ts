/**
 * VAT of one invoice line in cents: `amountCents` × `percentage` %, rounded half-up (half away from
 * zero for a discount line, so a discount and its charge round alike). Integer arithmetic only:
 * the percentage has at most two decimals, so it is counted in hundredths of a percent.
 */
export function vatCents(amountCents: number, percentage: string | null): number {
  if (percentage === null) return 0;
  const basisPoints = Math.round(Number(percentage) * 100); // 21 → 2100, 9.5 → 950
  const scaled = Math.abs(amountCents) * basisPoints; // in 1/10,000 of a cent
  const rounded = Math.floor((scaled + 5000) / 10000);
  return amountCents < 0 ? -rounded : rounded;
}

/**
 * A VAT-inclusive amount split into its part excluding VAT and its VAT, so that the two add up to
 * exactly `includingCents`: the VAT is the inclusive amount less the amount excluding VAT rounded
 * half-up (`includingCents / (1 + rate)`).
 */
export function splitInclusive(includingCents: number, percentage: string | null): { excluding: number; vat: number } {
  if (percentage === null) return { excluding: includingCents, vat: 0 };
  const basisPoints = Math.round(Number(percentage) * 100);
  const scaled = Math.abs(includingCents) * 10000;
  const divisor = 10000 + basisPoints;
  const excludingAbs = Math.floor((2 * scaled + divisor) / (2 * divisor));
  const excluding = includingCents < 0 ? -excludingAbs : excludingAbs;
  return { excluding, vat: includingCents - excluding };
}

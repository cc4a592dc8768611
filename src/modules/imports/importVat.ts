import { splitInclusive, vatCents } from '../../money/vat';
import type { InvoiceRuleInput } from '../subscriptions/requestSchemas';

/**
 * How an imported subscription's charges are invoiced: rules at the VAT the source charged, or why
 * that rate is not known — its invoices are then `not_issued` with the reason, never split at the
 * account's default rate (a 9 % product would be invoiced at 21 %).
 */
export type ImportInvoicing = { rules: InvoiceRuleInput[] } | { refusal: string };

/** A VAT percentage as an import names it: `21`, `9`, `9.5`, `0` (at most two decimals, at most 100). */
const VAT_PERCENTAGE = /^\d{1,3}(\.\d{1,2})?$/;

/** The percentage in its stored form (`9.00` → `9`), or null when the text is no VAT percentage. */
export function vatRateOf(text: string): string | null {
  const trimmed = text.trim().replace(',', '.');
  if (!VAT_PERCENTAGE.test(trimmed) || Number(trimmed) > 100) return null;
  return String(Number(trimmed));
}

/** One rule of a VAT-inclusive amount at a known rate: its amount without VAT such that it and its VAT add up to the amount. */
export function invoicedAtRate(description: string, gross: number, rate: string): ImportInvoicing {
  const { excluding } = splitInclusive(gross, rate);
  // The split rounds once; the rule's VAT is rounded again per line: take the neighbour that adds up when it does not.
  const net = [excluding, excluding - 1, excluding + 1].find((candidate) => candidate + vatCents(candidate, rate) === gross);
  if (net === undefined) return { refusal: `${gross} cents cannot be split into an amount and ${rate} % VAT that add up to it` };
  return { rules: [{ quantity: 1, description: description.slice(0, 191), amount: net, vat: rate }] };
}

/**
 * The VAT rate a part was taxed at, from its amount without tax and its tax: the percentage (whole,
 * else with one or two decimals) whose VAT is exactly that tax, rounded as an invoice line's (from the
 * amount without tax) or as a store with prices entered with tax rounds it (from the amount with tax).
 * Both roundings are tried at each precision before a finer one: 10.00 with 21 % in it is 8.26 and
 * 1.74, which 21.1 % of 8.26 also gives — a rate no one charged. Null for no tax; undefined when no
 * one rate gives it (mixed rates, or an amount too small to tell).
 */
function derivedRate(net: number, tax: number): string | null | undefined {
  if (tax === 0) return null;
  if (net <= 0 || tax < 0) return undefined;
  for (const decimals of [0, 1, 2]) {
    const scale = 10 ** decimals;
    const percent = Math.round((tax * 100 * scale) / net) / scale;
    if (percent > 100) return undefined;
    const rate = String(percent);
    if (vatCents(net, rate) === tax || splitInclusive(net + tax, rate).vat === tax) return rate;
  }
  return undefined;
}

/** A part a source charges each period: its description, amount with tax and the tax in it (cents). */
export interface TaxedPart {
  description: string;
  quantity: number;
  gross: number;
  tax: number;
}

/**
 * Rules from what a source charged with its tax (a store subscription's lines, or its total and
 * total tax): each part's rate derived from its own tax, and that tax kept (a rate read from a rounding
 * of the gross gives another VAT from the net). Undefined when a part's rate cannot be told.
 */
export function invoicedFromTaxed(parts: readonly TaxedPart[]): ImportInvoicing | undefined {
  const rules: InvoiceRuleInput[] = [];
  for (const part of parts) {
    const net = part.gross - part.tax;
    const rate = derivedRate(net, part.tax);
    if (rate === undefined) return undefined;
    const name = part.quantity > 1 ? `${part.quantity} × ${part.description}` : part.description;
    rules.push({ quantity: 1, description: name.slice(0, 191), amount: net, vat: rate, vat_amount: part.tax });
  }
  return { rules };
}

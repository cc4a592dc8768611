import type { Cents } from '../../money';

/**
 * Mollie's amounts per payment method, in EUR, as its help centre lists them ("What are the minimum and maximum
 * amounts per payment method?"). Only a fallback: Mollie's Methods API answers each method's `minimumAmount` and
 * `maximumAmount` for the account's own profile (`GET /v2/methods`, `GET /v2/methods/{id}?currency=…`), and that
 * answer wins. Used where an answer leaves a method's amounts out.
 */
export const MOLLIE_METHOD_AMOUNTS: Readonly<Record<string, { minimum: Cents; maximum: Cents | null }>> = {
  ideal: { minimum: 1, maximum: 5_000_000 }, // 0.01 – 50,000.00
  creditcard: { minimum: 1, maximum: 1_000_000 }, // 0.01 – 10,000.00
  directdebit: { minimum: 1, maximum: 100_000 }, // 0.01 – 1,000.00
  bancontact: { minimum: 2, maximum: 5_000_000 }, // 0.02 – 50,000.00
  belfius: { minimum: 1, maximum: 5_000_000 },
  kbc: { minimum: 1, maximum: 5_000_000 },
  eps: { minimum: 100, maximum: 5_000_000 }, // 1.00 – 50,000.00
  banktransfer: { minimum: 1, maximum: 100_000_000 }, // 0.01 – 1,000,000.00
  paypal: { minimum: 1, maximum: 800_000 }, // 0.01 – 8,000.00
};

/**
 * The currencies each method takes (Mollie's multicurrency guide): cards and PayPal many, the local bank methods
 * EUR only. Mollie's API tells whether a method takes a currency only when asked for that one, so the list a client
 * is told when its currency is refused comes from here. A method not named takes EUR.
 */
export const MOLLIE_METHOD_CURRENCIES: Readonly<Record<string, readonly string[]>> = {
  creditcard: ['AUD', 'CAD', 'CHF', 'CZK', 'DKK', 'EUR', 'GBP', 'HKD', 'HUF', 'ILS', 'ISK', 'JPY', 'NOK', 'PLN', 'RON', 'SEK', 'USD'],
  paypal: ['AUD', 'CAD', 'CHF', 'CZK', 'DKK', 'EUR', 'GBP', 'HKD', 'HUF', 'ILS', 'JPY', 'NOK', 'PLN', 'SEK', 'USD'],
};

/** The currencies the enabled methods take together, sorted. */
export function currenciesOf(methods: readonly string[]): string[] {
  return [...new Set(methods.flatMap((method) => MOLLIE_METHOD_CURRENCIES[method] ?? ['EUR']))].sort();
}

import type { Cents } from './index';
import type { PageLocale } from '../i18n/locales';

const SYMBOLS: Record<string, string> = { EUR: '€', USD: '$', GBP: '£' };

/**
 * An amount as a buyer reads it in their language: `25,00 €` (nl, de, fr, es), `€25.00` (en). The
 * digits come from Intl for the locale (grouping, decimal comma); the symbol's place is ours, so that
 * every continental locale reads the same way on one page and in one e-mail.
 */
export function formatMoneyFor(locale: PageLocale, cents: Cents, currency: string): string {
  const number = new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(cents / 100);
  const symbol = SYMBOLS[currency] ?? currency;
  return locale === 'en' ? `${symbol}${number}` : `${number}\u00a0${symbol}`;
}

/** The spec's customer locales: what a customer's `locale` may be. */
export const LOCALES = ['nl', 'en', 'fr', 'de', 'es'] as const;

/** The languages our pages and e-mails speak: the spec's customer locales. */
export const PAGE_LOCALES = LOCALES;
export type PageLocale = (typeof PAGE_LOCALES)[number];

export const FALLBACK_LOCALE: PageLocale = 'en';

const isPageLocale = (value: string): value is PageLocale => (PAGE_LOCALES as readonly string[]).includes(value);

/** A stored locale (`nl`, or `nl_NL`/`nl-BE` from elsewhere) as one of ours; null when we do not speak it. */
export function pageLocaleOf(value: string | null | undefined): PageLocale | null {
  if (!value) return null;
  const language = value.trim().toLowerCase().split(/[-_]/, 1)[0] ?? '';
  return isPageLocale(language) ? language : null;
}

/**
 * The best of our locales for an `Accept-Language` header (`nl-NL,nl;q=0.9,en;q=0.8`), by quality
 * then order; `en` when it names none of them or is absent.
 */
export function localeFromAcceptLanguage(header: string | undefined): PageLocale {
  if (!header) return FALLBACK_LOCALE;
  const ranked = header
    .split(',')
    .map((part, order) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((param) => /^\s*q=([0-9.]+)\s*$/.exec(param)?.[1]).find((value) => value !== undefined);
      return { locale: pageLocaleOf(tag), quality: q === undefined ? 1 : Number(q), order };
    })
    .filter((entry): entry is { locale: PageLocale; quality: number; order: number } => entry.locale !== null && entry.quality > 0)
    .sort((a, b) => b.quality - a.quality || a.order - b.order);
  return ranked[0]?.locale ?? FALLBACK_LOCALE;
}

/** The customer's own locale wins; else what the browser asks for; else English. */
export function chooseLocale(customerLocale: string | null | undefined, acceptLanguage: string | undefined): PageLocale {
  return pageLocaleOf(customerLocale) ?? localeFromAcceptLanguage(acceptLanguage);
}

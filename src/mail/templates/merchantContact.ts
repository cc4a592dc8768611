import type { PageLocale } from '../../i18n/locales';

/** Who sends the mail and how to reach them: every customer mail names both. */
export interface MerchantInMail {
  /** The display name (merchantProfileOf). */
  merchantName: string;
  /** The merchant's contact address; null when the account has none. */
  contactEmail: string | null;
}

const CONTACT: Record<PageLocale, (merchant: string, email: string) => string> = {
  en: (merchant, email) => `Questions? Contact ${merchant} at ${email}.`,
  nl: (merchant, email) => `Vragen? Neem contact op met ${merchant} via ${email}.`,
  de: (merchant, email) => `Fragen? Schreiben Sie ${merchant} an ${email}.`,
  fr: (merchant, email) => `Des questions ? Contactez ${merchant} à l’adresse ${email}.`,
  es: (merchant, email) => `¿Preguntas? Escriba a ${merchant} a ${email}.`,
};

/** The contact sentence, or '' when the merchant set no address. */
export const contactLine = (locale: PageLocale, merchant: MerchantInMail): string =>
  merchant.contactEmail ? CONTACT[locale](merchant.merchantName, merchant.contactEmail) : '';

export const GREETING: Record<PageLocale, (name: string | null) => string> = {
  en: (name) => (name ? `Dear ${name},` : 'Hello,'),
  nl: (name) => (name ? `Beste ${name},` : 'Hallo,'),
  de: (name) => (name ? `Guten Tag ${name},` : 'Guten Tag,'),
  fr: (name) => (name ? `Bonjour ${name},` : 'Bonjour,'),
  es: (name) => (name ? `Estimado/a ${name}:` : 'Hola:'),
};

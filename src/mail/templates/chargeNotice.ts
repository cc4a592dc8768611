import type { PageLocale } from '../../i18n/locales';
import { formatMoneyFor } from '../../money/forLocale';
import { escapeHtml, mailLayout, type RenderedMail } from './layout';

/** The SEPA pre-notification: which amount is debited, on which day, under which mandate. */
export interface ChargeNoticeData {
  merchantName: string;
  customerName: string | null;
  description: string;
  amountCents: number;
  currency: string;
  /** Y-m-d: the day of the debit. */
  chargeDate: string;
  mandateReference: string | null;
}

interface Words {
  subject(merchant: string): string;
  greeting(name: string | null): string;
  body(merchant: string, amount: string, date: string, description: string): string;
  mandate(reference: string): string;
  closing: string;
}

const dateIn = (locale: PageLocale, ymd: string) =>
  new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(new Date(`${ymd}T00:00:00Z`));

const WORDS: Record<PageLocale, Words> = {
  en: {
    subject: (merchant) => `Upcoming direct debit by ${merchant}`,
    greeting: (name) => (name ? `Dear ${name},` : 'Hello,'),
    body: (merchant, amount, date, description) =>
      `${merchant} will debit ${amount} from your account on or shortly after ${date} for "${description}".`,
    mandate: (reference) => `Mandate reference: ${reference}.`,
    closing: 'Please make sure the amount is available. No action is needed otherwise.',
  },
  nl: {
    subject: (merchant) => `Aankondiging incasso door ${merchant}`,
    greeting: (name) => (name ? `Beste ${name},` : 'Hallo,'),
    body: (merchant, amount, date, description) =>
      `${merchant} schrijft op of kort na ${date} ${amount} af van uw rekening voor "${description}".`,
    mandate: (reference) => `Machtigingskenmerk: ${reference}.`,
    closing: 'Zorg dat het bedrag beschikbaar is. Verder hoeft u niets te doen.',
  },
  de: {
    subject: (merchant) => `Vorabankündigung einer Lastschrift von ${merchant}`,
    greeting: (name) => (name ? `Guten Tag ${name},` : 'Guten Tag,'),
    body: (merchant, amount, date, description) =>
      `${merchant} zieht am oder kurz nach dem ${date} ${amount} für „${description}“ von Ihrem Konto ein.`,
    mandate: (reference) => `Mandatsreferenz: ${reference}.`,
    closing: 'Bitte sorgen Sie für ausreichende Deckung. Sonst ist nichts zu tun.',
  },
  fr: {
    subject: (merchant) => `Prélèvement à venir de ${merchant}`,
    greeting: (name) => (name ? `Bonjour ${name},` : 'Bonjour,'),
    body: (merchant, amount, date, description) =>
      `${merchant} prélèvera ${amount} sur votre compte le ${date} ou peu après, pour « ${description} ».`,
    mandate: (reference) => `Référence du mandat : ${reference}.`,
    closing: 'Merci de veiller à ce que le montant soit disponible. Aucune autre action n’est nécessaire.',
  },
  es: {
    subject: (merchant) => `Próximo adeudo de ${merchant}`,
    greeting: (name) => (name ? `Estimado/a ${name}:` : 'Hola:'),
    body: (merchant, amount, date, description) =>
      `${merchant} cargará ${amount} en su cuenta el ${date} o poco después, por «${description}».`,
    mandate: (reference) => `Referencia del mandato: ${reference}.`,
    closing: 'Asegúrese de que el importe esté disponible. No tiene que hacer nada más.',
  },
};

export function renderChargeNotice(locale: PageLocale, data: ChargeNoticeData): RenderedMail {
  const words = WORDS[locale];
  const amount = formatMoneyFor(locale, data.amountCents, data.currency);
  const lines = [
    words.greeting(data.customerName),
    '',
    words.body(data.merchantName, amount, dateIn(locale, data.chargeDate), data.description),
  ];
  if (data.mandateReference) lines.push(words.mandate(data.mandateReference));
  lines.push('', words.closing, '', data.merchantName);
  const text = lines.join('\n');
  const html = mailLayout(
    locale,
    words.subject(data.merchantName),
    lines
      .filter((line) => line !== '')
      .map((line) => `<p>${escapeHtml(line)}</p>`)
      .join('\n'),
  );
  return { subject: words.subject(data.merchantName), text, html };
}

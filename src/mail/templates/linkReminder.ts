import { formatMoneyFor } from '../../money/forLocale';
import type { PageLocale } from '../../i18n/locales';
import { escapeHtml, mailLayout, type RenderedMail } from './layout';
import { utcMidnightOf } from '../../time/calendar';

/** What the reminder of an open payment link says. */
export interface LinkReminderData {
  merchantName: string;
  customerName: string | null;
  description: string;
  amountCents: number;
  currency: string;
  url: string;
  /** Y-m-d: the last day the link can be paid; null when it does not expire. */
  expiresAt: string | null;
}

interface Words {
  subject(merchant: string): string;
  greeting(name: string | null): string;
  body(merchant: string, description: string, amount: string): string;
  expires(date: string): string;
  button: string;
  ignore: string;
}

/** Dates as people write them in each language. */
const dateIn = (locale: PageLocale, ymd: string) =>
  new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(utcMidnightOf(ymd));

const WORDS: Record<PageLocale, Words> = {
  en: {
    subject: (merchant) => `Reminder: your payment to ${merchant}`,
    greeting: (name) => (name ? `Dear ${name},` : 'Hello,'),
    body: (merchant, description, amount) => `${merchant} kindly reminds you of "${description}": ${amount}, still open.`,
    expires: (date) => `The link can be used until ${date}.`,
    button: 'Pay now',
    ignore: 'Already paid? Then you can ignore this e-mail.',
  },
  nl: {
    subject: (merchant) => `Herinnering: uw betaling aan ${merchant}`,
    greeting: (name) => (name ? `Beste ${name},` : 'Hallo,'),
    body: (merchant, description, amount) => `${merchant} herinnert u graag aan "${description}": ${amount}, nog open.`,
    expires: (date) => `De link is geldig tot en met ${date}.`,
    button: 'Nu betalen',
    ignore: 'Al betaald? Dan kunt u deze e-mail negeren.',
  },
  de: {
    subject: (merchant) => `Erinnerung: Ihre Zahlung an ${merchant}`,
    greeting: (name) => (name ? `Guten Tag ${name},` : 'Guten Tag,'),
    body: (merchant, description, amount) => `${merchant} erinnert Sie freundlich an „${description}“: ${amount}, noch offen.`,
    expires: (date) => `Der Link ist bis einschließlich ${date} gültig.`,
    button: 'Jetzt bezahlen',
    ignore: 'Schon bezahlt? Dann können Sie diese E-Mail ignorieren.',
  },
  fr: {
    subject: (merchant) => `Rappel : votre paiement à ${merchant}`,
    greeting: (name) => (name ? `Bonjour ${name},` : 'Bonjour,'),
    body: (merchant, description, amount) => `${merchant} vous rappelle « ${description} » : ${amount}, toujours en attente.`,
    expires: (date) => `Le lien est valable jusqu’au ${date} inclus.`,
    button: 'Payer maintenant',
    ignore: 'Déjà payé ? Vous pouvez ignorer cet e-mail.',
  },
  es: {
    subject: (merchant) => `Recordatorio: su pago a ${merchant}`,
    greeting: (name) => (name ? `Estimado/a ${name}:` : 'Hola:'),
    body: (merchant, description, amount) => `${merchant} le recuerda «${description}»: ${amount}, aún pendiente.`,
    expires: (date) => `El enlace es válido hasta el ${date} inclusive.`,
    button: 'Pagar ahora',
    ignore: '¿Ya lo ha pagado? Entonces puede ignorar este correo.',
  },
};

/** The link as a button, inline: mail clients drop style sheets. */
const BUTTON_STYLE = 'display:inline-block;padding:12px 20px;background:#0b5cad;color:#ffffff;text-decoration:none;border-radius:6px';

export function renderLinkReminder(locale: PageLocale, data: LinkReminderData): RenderedMail {
  const words = WORDS[locale];
  const amount = formatMoneyFor(locale, data.amountCents, data.currency);
  const lines = [words.greeting(data.customerName), '', words.body(data.merchantName, data.description, amount)];
  if (data.expiresAt) lines.push(words.expires(dateIn(locale, data.expiresAt)));
  const text = [...lines, '', `${words.button}: ${data.url}`, '', words.ignore, '', data.merchantName].join('\n');
  const paragraphs = lines.filter((line) => line !== '').map((line) => `<p>${escapeHtml(line)}</p>`);
  const html = mailLayout(
    locale,
    words.subject(data.merchantName),
    `${paragraphs.join('\n')}
<p><a href="${escapeHtml(data.url)}" style="${BUTTON_STYLE}">${escapeHtml(words.button)}</a></p>
<p style="color:#555">${escapeHtml(words.ignore)}</p>
<p>${escapeHtml(data.merchantName)}</p>`,
  );
  return { subject: words.subject(data.merchantName), text, html };
}

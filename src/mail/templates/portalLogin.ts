import type { PageLocale } from '../../i18n/locales';
import { composeMail } from './compose';
import type { RenderedMail } from './layout';
import { contactLine, GREETING, type MerchantInMail } from './merchantContact';

/** The one-time link of the portal's log-in by e-mail. */
export interface PortalLoginData extends MerchantInMail {
  customerName: string | null;
  /** The single-use log-in link. */
  url: string;
  /** How long the link works, from the moment it was made. */
  validMinutes: number;
}

interface Words {
  subject(merchant: string): string;
  body(merchant: string): string;
  expiry(minutes: number): string;
  button: string;
  ignore: string;
}

const WORDS: Record<PageLocale, Words> = {
  en: {
    subject: (merchant) => `Your log-in link for ${merchant}`,
    body: (merchant) => `Use the button below to see and manage your subscriptions with ${merchant}.`,
    expiry: (minutes) => `The link works once and expires in ${minutes} minutes.`,
    button: 'Log in',
    ignore: 'Did you not ask for this link? Then you can ignore this e-mail; nobody can log in without it.',
  },
  nl: {
    subject: (merchant) => `Uw inloglink voor ${merchant}`,
    body: (merchant) => `Met de knop hieronder bekijkt en beheert u uw abonnementen bij ${merchant}.`,
    expiry: (minutes) => `De link werkt één keer en verloopt over ${minutes} minuten.`,
    button: 'Inloggen',
    ignore: 'Hebt u deze link niet aangevraagd? Dan kunt u deze e-mail negeren; zonder de link kan niemand inloggen.',
  },
  de: {
    subject: (merchant) => `Ihr Anmeldelink für ${merchant}`,
    body: (merchant) => `Über die Schaltfläche unten sehen und verwalten Sie Ihre Abonnements bei ${merchant}.`,
    expiry: (minutes) => `Der Link funktioniert einmal und läuft in ${minutes} Minuten ab.`,
    button: 'Anmelden',
    ignore: 'Sie haben diesen Link nicht angefordert? Dann können Sie diese E-Mail ignorieren; ohne den Link kann sich niemand anmelden.',
  },
  fr: {
    subject: (merchant) => `Votre lien de connexion pour ${merchant}`,
    body: (merchant) => `Le bouton ci-dessous vous permet de consulter et gérer vos abonnements chez ${merchant}.`,
    expiry: (minutes) => `Le lien ne fonctionne qu’une fois et expire dans ${minutes} minutes.`,
    button: 'Se connecter',
    ignore: 'Vous n’avez pas demandé ce lien ? Vous pouvez ignorer cet e-mail ; personne ne peut se connecter sans lui.',
  },
  es: {
    subject: (merchant) => `Su enlace de acceso a ${merchant}`,
    body: (merchant) => `Con el botón de abajo puede ver y gestionar sus suscripciones con ${merchant}.`,
    expiry: (minutes) => `El enlace funciona una sola vez y caduca en ${minutes} minutos.`,
    button: 'Acceder',
    ignore: '¿No ha pedido este enlace? Entonces puede ignorar este correo; nadie puede acceder sin él.',
  },
};

export function renderPortalLogin(locale: PageLocale, data: PortalLoginData): RenderedMail {
  const words = WORDS[locale];
  return composeMail(locale, {
    subject: words.subject(data.merchantName),
    paragraphs: [GREETING[locale](data.customerName), words.body(data.merchantName), words.expiry(data.validMinutes)],
    button: { label: words.button, url: data.url },
    notes: [words.ignore, contactLine(locale, data)],
    signature: data.merchantName,
  });
}

/**
 * The mail as the outbox keeps it once sent: the link's token gone. The customer has the mail; a
 * copy in the table (backups, `cli mails list`, whoever reads the database) would otherwise open
 * their portal for as long as the link works.
 */
export const withoutPortalLoginSecrets = (body: string): string =>
  body.replace(/\/portal\/session\/[A-Za-z0-9_-]+/g, '/portal/session/[removed]');

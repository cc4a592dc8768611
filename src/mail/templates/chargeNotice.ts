import type { PageLocale } from '../../i18n/locales';
import { formatMoneyFor } from '../../money/forLocale';
import { composeMail, mailDate } from './compose';
import type { RenderedMail } from './layout';
import { contactLine, GREETING, type MerchantInMail } from './merchantContact';

/**
 * The SEPA pre-notification: which amount is debited, on which day, under which mandate and by which
 * creditor (identifier), how to reach the merchant, and where to change or cancel (the portal).
 */
export interface ChargeNoticeData extends MerchantInMail {
  customerName: string | null;
  description: string;
  amountCents: number;
  currency: string;
  /** Y-m-d: the day of the debit. */
  chargeDate: string;
  mandateReference: string | null;
  /** The merchant's SEPA creditor identifier; null when the account set none. */
  creditorId: string | null;
  /** `${PUBLIC_URL}/portal`, where the customer logs in to manage the subscription. */
  portalUrl: string;
}

interface Words {
  subject(merchant: string): string;
  body(merchant: string, amount: string, date: string, description: string): string;
  mandate(reference: string): string;
  creditor(id: string): string;
  closing: string;
  manage: string;
  manageNote: string;
}

const WORDS: Record<PageLocale, Words> = {
  en: {
    subject: (merchant) => `Upcoming direct debit by ${merchant}`,
    body: (merchant, amount, date, description) =>
      `${merchant} will debit ${amount} from your account on or shortly after ${date} for "${description}".`,
    mandate: (reference) => `Mandate reference: ${reference}.`,
    creditor: (id) => `Creditor identifier: ${id}.`,
    closing: 'Please make sure the amount is available. No action is needed otherwise.',
    manage: 'Manage your subscription',
    manageNote: 'There you can change your payment method, pause, skip or cancel, as the merchant allows.',
  },
  nl: {
    subject: (merchant) => `Aankondiging incasso door ${merchant}`,
    body: (merchant, amount, date, description) =>
      `${merchant} schrijft op of kort na ${date} ${amount} af van uw rekening voor "${description}".`,
    mandate: (reference) => `Machtigingskenmerk: ${reference}.`,
    creditor: (id) => `Incassant-ID: ${id}.`,
    closing: 'Zorg dat het bedrag beschikbaar is. Verder hoeft u niets te doen.',
    manage: 'Uw abonnement beheren',
    manageNote: 'Daar kunt u uw betaalmethode wijzigen, pauzeren, overslaan of opzeggen, voor zover de verkoper dat toestaat.',
  },
  de: {
    subject: (merchant) => `Vorabankündigung einer Lastschrift von ${merchant}`,
    body: (merchant, amount, date, description) =>
      `${merchant} zieht am oder kurz nach dem ${date} ${amount} für „${description}“ von Ihrem Konto ein.`,
    mandate: (reference) => `Mandatsreferenz: ${reference}.`,
    creditor: (id) => `Gläubiger-Identifikationsnummer: ${id}.`,
    closing: 'Bitte sorgen Sie für ausreichende Deckung. Sonst ist nichts zu tun.',
    manage: 'Abonnement verwalten',
    manageNote: 'Dort können Sie die Zahlungsart ändern, pausieren, aussetzen oder kündigen, soweit der Händler es erlaubt.',
  },
  fr: {
    subject: (merchant) => `Prélèvement à venir de ${merchant}`,
    body: (merchant, amount, date, description) =>
      `${merchant} prélèvera ${amount} sur votre compte le ${date} ou peu après, pour « ${description} ».`,
    mandate: (reference) => `Référence du mandat : ${reference}.`,
    creditor: (id) => `Identifiant créancier SEPA : ${id}.`,
    closing: 'Merci de veiller à ce que le montant soit disponible. Aucune autre action n’est nécessaire.',
    manage: 'Gérer votre abonnement',
    manageNote: 'Vous pouvez y changer de moyen de paiement, mettre en pause, sauter ou résilier, selon ce que le marchand permet.',
  },
  es: {
    subject: (merchant) => `Próximo adeudo de ${merchant}`,
    body: (merchant, amount, date, description) =>
      `${merchant} cargará ${amount} en su cuenta el ${date} o poco después, por «${description}».`,
    mandate: (reference) => `Referencia del mandato: ${reference}.`,
    creditor: (id) => `Identificador del acreedor: ${id}.`,
    closing: 'Asegúrese de que el importe esté disponible. No tiene que hacer nada más.',
    manage: 'Gestionar su suscripción',
    manageNote: 'Allí puede cambiar el método de pago, pausar, omitir un cobro o cancelar, según lo permita el comercio.',
  },
};

export function renderChargeNotice(locale: PageLocale, data: ChargeNoticeData): RenderedMail {
  const words = WORDS[locale];
  const amount = formatMoneyFor(locale, data.amountCents, data.currency);
  return composeMail(locale, {
    subject: words.subject(data.merchantName),
    paragraphs: [
      GREETING[locale](data.customerName),
      words.body(data.merchantName, amount, mailDate(locale, data.chargeDate), data.description),
      data.mandateReference ? words.mandate(data.mandateReference) : '',
      data.creditorId ? words.creditor(data.creditorId) : '',
      words.closing,
    ],
    button: { label: words.manage, url: data.portalUrl },
    notes: [words.manageNote, contactLine(locale, data)],
    signature: data.merchantName,
  });
}

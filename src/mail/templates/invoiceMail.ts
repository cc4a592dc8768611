import type { PageLocale } from '../../i18n/locales';
import { formatMoneyFor } from '../../money/forLocale';
import { composeMail, mailDate } from './compose';
import type { RenderedMail } from './layout';
import { contactLine, GREETING, type MerchantInMail } from './merchantContact';

/** The mail an invoice or credit note goes out with; the document itself is the attached PDF. */
export interface InvoiceMailData extends MerchantInMail {
  customerName: string | null;
  kind: 'invoice' | 'credit_note';
  number: string;
  /** Y-m-d: the document's date. */
  issuedOn: string;
  /** The document's total including VAT, in cents (a credit note's as the positive amount given back). */
  amountCents: number;
  currency: string;
  /** `${PUBLIC_URL}/portal`, where the customer finds every invoice again. */
  portalUrl: string;
}

interface Words {
  subject(kind: InvoiceMailData['kind'], number: string, merchant: string): string;
  body(kind: InvoiceMailData['kind'], number: string, date: string, amount: string): string;
  attached: string;
  portal: string;
}

const WORDS: Record<PageLocale, Words> = {
  en: {
    subject: (kind, number, merchant) => `${kind === 'invoice' ? 'Invoice' : 'Credit note'} ${number} from ${merchant}`,
    body: (kind, number, date, amount) =>
      kind === 'invoice'
        ? `Thank you for your payment. Invoice ${number} of ${date} for ${amount} is paid.`
        : `Credit note ${number} of ${date}: ${amount} is credited to you.`,
    attached: 'You find it attached as a PDF.',
    portal: 'All your invoices',
  },
  nl: {
    subject: (kind, number, merchant) => `${kind === 'invoice' ? 'Factuur' : 'Creditnota'} ${number} van ${merchant}`,
    body: (kind, number, date, amount) =>
      kind === 'invoice'
        ? `Dank voor uw betaling. Factuur ${number} van ${date} over ${amount} is betaald.`
        : `Creditnota ${number} van ${date}: ${amount} wordt u gecrediteerd.`,
    attached: 'U vindt deze als pdf in de bijlage.',
    portal: 'Al uw facturen',
  },
  de: {
    subject: (kind, number, merchant) => `${kind === 'invoice' ? 'Rechnung' : 'Gutschrift'} ${number} von ${merchant}`,
    body: (kind, number, date, amount) =>
      kind === 'invoice'
        ? `Vielen Dank für Ihre Zahlung. Die Rechnung ${number} vom ${date} über ${amount} ist bezahlt.`
        : `Gutschrift ${number} vom ${date}: ${amount} werden Ihnen gutgeschrieben.`,
    attached: 'Sie finden sie als PDF im Anhang.',
    portal: 'Alle Ihre Rechnungen',
  },
  fr: {
    subject: (kind, number, merchant) => `${kind === 'invoice' ? 'Facture' : 'Avoir'} ${number} de ${merchant}`,
    body: (kind, number, date, amount) =>
      kind === 'invoice'
        ? `Merci pour votre paiement. La facture ${number} du ${date} d’un montant de ${amount} est payée.`
        : `Avoir ${number} du ${date} : ${amount} vous est crédité.`,
    attached: 'Vous la trouverez en pièce jointe au format PDF.',
    portal: 'Toutes vos factures',
  },
  es: {
    subject: (kind, number, merchant) => `${kind === 'invoice' ? 'Factura' : 'Factura rectificativa'} ${number} de ${merchant}`,
    body: (kind, number, date, amount) =>
      kind === 'invoice'
        ? `Gracias por su pago. La factura ${number} del ${date} por ${amount} está pagada.`
        : `Factura rectificativa ${number} del ${date}: se le abonan ${amount}.`,
    attached: 'La encontrará adjunta en PDF.',
    portal: 'Todas sus facturas',
  },
};

export function renderInvoiceMail(locale: PageLocale, data: InvoiceMailData): RenderedMail {
  const words = WORDS[locale];
  const amount = formatMoneyFor(locale, data.amountCents, data.currency);
  return composeMail(locale, {
    subject: words.subject(data.kind, data.number, data.merchantName),
    paragraphs: [
      GREETING[locale](data.customerName),
      words.body(data.kind, data.number, mailDate(locale, data.issuedOn), amount),
      words.attached,
    ],
    button: { label: words.portal, url: data.portalUrl },
    notes: [contactLine(locale, data)],
    signature: data.merchantName,
  });
}

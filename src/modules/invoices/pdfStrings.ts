import type { PageLocale } from '../../i18n/locales';

/** The words on an invoice or credit note PDF (pdf.ts draws them). */
export interface Labels {
  invoice: string;
  creditNote: string;
  number: string;
  date: string;
  credits: string;
  from: string;
  to: string;
  vatNumber: string;
  cocNumber: string;
  period: string;
  suppliedOn: string;
  description: string;
  quantity: string;
  unitPrice: string;
  vat: string;
  amount: string;
  totalExcluding: string;
  vatAt: (rate: string) => string;
  total: string;
  paymentReference: string;
  reverseCharge: string;
  oss: (country: string) => string;
  paid: string;
}

/** The words on an invoice, in each of the customer locales (PAGE_LOCALES). */
export const LABELS: Record<PageLocale, Labels> = {
  en: {
    invoice: 'Invoice',
    creditNote: 'Credit note',
    number: 'Number',
    date: 'Date',
    credits: 'Credits invoice',
    from: 'From',
    to: 'To',
    vatNumber: 'VAT number',
    cocNumber: 'Chamber of Commerce no.',
    period: 'Period',
    suppliedOn: 'Date of supply',
    description: 'Description',
    quantity: 'Qty',
    unitPrice: 'Unit price',
    vat: 'VAT',
    amount: 'Amount',
    totalExcluding: 'Total excluding VAT',
    vatAt: (rate) => `VAT ${rate}%`,
    total: 'Total',
    paymentReference: 'Payment reference',
    reverseCharge: 'VAT reverse charged: the customer accounts for the VAT (Article 196, Directive 2006/112/EC).',
    oss: (country) => `VAT of ${country} (One Stop Shop).`,
    paid: 'Paid, thank you.',
  },
  nl: {
    invoice: 'Factuur',
    creditNote: 'Creditnota',
    number: 'Nummer',
    date: 'Datum',
    credits: 'Crediteert factuur',
    from: 'Van',
    to: 'Aan',
    vatNumber: 'Btw-nummer',
    cocNumber: 'KvK-nummer',
    period: 'Periode',
    suppliedOn: 'Leverdatum',
    description: 'Omschrijving',
    quantity: 'Aantal',
    unitPrice: 'Prijs per stuk',
    vat: 'Btw',
    amount: 'Bedrag',
    totalExcluding: 'Totaal exclusief btw',
    vatAt: (rate) => `Btw ${rate}%`,
    total: 'Totaal',
    paymentReference: 'Betalingskenmerk',
    reverseCharge: 'Btw verlegd: de afnemer draagt de btw af (artikel 196, Richtlijn 2006/112/EG).',
    oss: (country) => `Btw van ${country} (One Stop Shop).`,
    paid: 'Betaald, dank u wel.',
  },
  de: {
    invoice: 'Rechnung',
    creditNote: 'Gutschrift',
    number: 'Nummer',
    date: 'Datum',
    credits: 'Storniert Rechnung',
    from: 'Von',
    to: 'An',
    vatNumber: 'USt-IdNr.',
    cocNumber: 'Handelsregister-Nr.',
    period: 'Zeitraum',
    suppliedOn: 'Leistungsdatum',
    description: 'Beschreibung',
    quantity: 'Menge',
    unitPrice: 'Einzelpreis',
    vat: 'MwSt.',
    amount: 'Betrag',
    totalExcluding: 'Summe ohne MwSt.',
    vatAt: (rate) => `MwSt. ${rate}%`,
    total: 'Gesamtbetrag',
    paymentReference: 'Zahlungsreferenz',
    reverseCharge: 'Steuerschuldnerschaft des Leistungsempfängers (Artikel 196, Richtlinie 2006/112/EG).',
    oss: (country) => `MwSt. von ${country} (One-Stop-Shop).`,
    paid: 'Bezahlt, vielen Dank.',
  },
  fr: {
    invoice: 'Facture',
    creditNote: 'Avoir',
    number: 'Numéro',
    date: 'Date',
    credits: 'Avoir sur la facture',
    from: 'De',
    to: 'À',
    vatNumber: 'N° de TVA',
    cocNumber: 'N° RCS',
    period: 'Période',
    suppliedOn: 'Date de livraison',
    description: 'Description',
    quantity: 'Qté',
    unitPrice: 'Prix unitaire',
    vat: 'TVA',
    amount: 'Montant',
    totalExcluding: 'Total hors TVA',
    vatAt: (rate) => `TVA ${rate}%`,
    total: 'Total TTC',
    paymentReference: 'Référence de paiement',
    reverseCharge: 'Autoliquidation : TVA due par le preneur (article 196, directive 2006/112/CE).',
    oss: (country) => `TVA de ${country} (guichet unique OSS).`,
    paid: 'Payée, merci.',
  },
  es: {
    invoice: 'Factura',
    creditNote: 'Factura rectificativa',
    number: 'Número',
    date: 'Fecha',
    credits: 'Rectifica la factura',
    from: 'De',
    to: 'Para',
    vatNumber: 'NIF-IVA',
    cocNumber: 'N.º de registro mercantil',
    period: 'Periodo',
    suppliedOn: 'Fecha de entrega',
    description: 'Descripción',
    quantity: 'Cant.',
    unitPrice: 'Precio unitario',
    vat: 'IVA',
    amount: 'Importe',
    totalExcluding: 'Total sin IVA',
    vatAt: (rate) => `IVA ${rate}%`,
    total: 'Total',
    paymentReference: 'Referencia de pago',
    reverseCharge: 'Inversión del sujeto pasivo (artículo 196, Directiva 2006/112/CE).',
    oss: (country) => `IVA de ${country} (ventanilla única OSS).`,
    paid: 'Pagada, gracias.',
  },
};

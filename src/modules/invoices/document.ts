import type { Knex } from 'knex';
import { euStandardVatRate } from '../../money/euVatRates';
import { pageLocaleOf, FALLBACK_LOCALE, type PageLocale } from '../../i18n/locales';
import type { CustomerRow } from '../customers/repository';
import type { PaymentRow } from '../payments/repository';
import { calendarDateIn, fromDbDateTime } from '../../time';
import { invoicesRepository } from './repository';
import type { InvoiceSettingsRow } from './settingsRepository';

export interface InvoiceLine {
  quantity: number;
  description: string;
  amount: number; // cents per unit, excluding VAT
  vat: string | null; // percentage
  ledger_account_id: string | null;
  total_excluding_vat: number;
  total_vat: number;
  total_including_vat: number;
  /** The period supplied (a charge's: `start` to `end`, Y-m-d, both included); absent when the invoice's date is the date of supply. */
  period?: LinePeriod | null;
}

export interface LinePeriod {
  start: string;
  end: string;
}

export interface Party {
  name: string;
  organization: string | null;
  address: string | null;
  postal_code: string | null;
  city: string | null;
  country: string | null;
  vat_number: string | null;
  /** The seller's Chamber of Commerce (KvK) number; absent on a buyer and on documents from before it. */
  coc_number?: string | null;
  email: string | null;
}

export interface VatTotal {
  vat: string | null;
  total_excluding_vat: number;
  total_vat: number;
  total_including_vat: number;
}

/** What an invoice or credit note says, as it was when it was made: the PDF is drawn from it. */
export interface InvoiceDocument {
  kind: 'invoice' | 'credit_note';
  number: string | null;
  /** The invoice a credit note corrects. */
  credits_number: string | null;
  issued_on: string; // Y-m-d in the service's time zone
  locale: PageLocale;
  currency: string;
  seller: Party;
  buyer: Party | null;
  payment_reference: string;
  lines: InvoiceLine[];
  vat_totals: VatTotal[];
  total_excluding_vat: number;
  total_vat: number;
  total_including_vat: number;
  reverse_charge: boolean;
  /** The customer's country whose rate OSS applied, null when none did. */
  oss_country: string | null;
}

export interface VatTreatment {
  /** The rate of a line made from the amount charged. */
  rate: string | null;
  reverseCharge: boolean;
  ossCountry: string | null;
}

type Buyer = Pick<CustomerRow, 'country' | 'vat_number'>;

/**
 * How the account's VAT applies to a customer: reverse charge (0 %) for a business with a VAT number
 * in another EU country; under OSS, a consumer in another EU country pays that country's standard
 * rate; else the account's default rate.
 */
export function vatTreatment(
  settings: Pick<InvoiceSettingsRow, 'default_vat' | 'oss' | 'seller_country'>,
  customer: Buyer | null,
): VatTreatment {
  const home = settings.seller_country?.toUpperCase() ?? null;
  const country = customer?.country?.trim().toUpperCase() || null;
  const abroadInEu = country !== null && home !== null && country !== home && euStandardVatRate(country) !== null;
  if (abroadInEu && customer?.vat_number?.trim()) return { rate: '0', reverseCharge: true, ossCountry: null };
  if (abroadInEu && Boolean(settings.oss)) return { rate: euStandardVatRate(country), reverseCharge: false, ossCountry: country };
  return { rate: settings.default_vat, reverseCharge: false, ossCountry: null };
}

/** The totals per VAT rate, in the order the rates first appear. */
export function vatTotalsOf(lines: readonly InvoiceLine[]): VatTotal[] {
  const totals = new Map<string, VatTotal>();
  for (const line of lines) {
    const key = line.vat ?? '';
    const total = totals.get(key) ?? { vat: line.vat, total_excluding_vat: 0, total_vat: 0, total_including_vat: 0 };
    total.total_excluding_vat += line.total_excluding_vat;
    total.total_vat += line.total_vat;
    total.total_including_vat += line.total_including_vat;
    totals.set(key, total);
  }
  return [...totals.values()];
}

export interface DocumentInput {
  kind: 'invoice' | 'credit_note';
  accountId: string;
  settings: InvoiceSettingsRow;
  number?: string | null;
  creditsNumber?: string | null;
  customer: CustomerRow | null;
  payment: PaymentRow;
  lines: InvoiceLine[];
  treatment: Pick<VatTreatment, 'reverseCharge' | 'ossCountry'>;
  issuedAt: string;
  timeZone: string;
}

/** The snapshot of seller, buyer, date, lines and totals stored on the invoice. */
export async function buildDocument(db: Knex, input: DocumentInput): Promise<InvoiceDocument> {
  const account = await invoicesRepository.sellerOf(db, input.accountId);
  const { settings, customer, lines } = input;
  const sum = (pick: (line: InvoiceLine) => number) => lines.reduce((total, line) => total + pick(line), 0);
  return {
    kind: input.kind,
    number: input.number ?? null,
    credits_number: input.creditsNumber ?? null,
    issued_on: calendarDateIn(fromDbDateTime(input.issuedAt), input.timeZone),
    locale: pageLocaleOf(customer?.locale) ?? FALLBACK_LOCALE,
    currency: input.payment.currency,
    seller: {
      name: account?.display_name ?? account?.name ?? '',
      organization: null,
      address: settings.seller_address,
      postal_code: settings.seller_postal_code,
      city: settings.seller_city,
      country: settings.seller_country,
      vat_number: settings.seller_vat_number,
      coc_number: settings.seller_coc_number,
      email: account?.contact_email ?? null,
    },
    buyer: customer
      ? {
          name: `${customer.first_name} ${customer.last_name}`.trim(),
          organization: customer.organization_name,
          address: customer.address,
          postal_code: customer.postal_code,
          city: customer.city,
          country: customer.country,
          vat_number: customer.vat_number,
          email: null,
        }
      : null,
    payment_reference: input.payment.provider_payment_id ?? input.payment.id,
    lines,
    vat_totals: vatTotalsOf(lines),
    total_excluding_vat: sum((line) => line.total_excluding_vat),
    total_vat: sum((line) => line.total_vat),
    total_including_vat: sum((line) => line.total_including_vat),
    reverse_charge: input.treatment.reverseCharge,
    oss_country: input.treatment.ossCountry,
  };
}

import { z } from 'zod';
import { formatCents } from '../../money';
import { formatDateTime } from '../../time';
import type { InvoiceDocument } from './invoiceDocument';
import type { CreditNoteRow } from './invoiceDocumentsRepository';
import type { InvoiceRow } from './invoicesRepository';

const money = z.string().describe('decimal, e.g. "12.50"');
const party = z
  .object({
    name: z.string(),
    organization: z.string().nullable(),
    address: z.string().nullable(),
    postal_code: z.string().nullable(),
    city: z.string().nullable(),
    country: z.string().nullable(),
    vat_number: z.string().nullable(),
    coc_number: z.string().nullable().describe("the seller's Chamber of Commerce (KvK) number; null when not set, and for a buyer"),
  })
  .nullable();

export const creditNoteResponse = z.object({
  id: z.string(),
  number: z.string(),
  reason: z.enum(['refund', 'chargeback']),
  total_excluding_vat: money,
  total_vat: money,
  total_including_vat: money,
  created_at: z.string(),
  pdf_url: z.string(),
});

export const issuedInvoiceResponse = z.object({
  resource: z.literal('invoice'),
  id: z.string(),
  number: z.string().nullable().describe('null while not issued'),
  status: z.enum(['issued', 'not_issued']),
  not_issued_reason: z.string().nullable(),
  subscription_id: z.string().nullable().describe("the subscription whose charge it invoices; null for a link's or an order's"),
  link_id: z.string().nullable().describe('the payment link it invoices, when the account invoices links'),
  order_id: z.string().nullable().describe('the store order it invoices, when the account invoices orders'),
  customer_id: z.string().nullable(),
  payment_id: z.string(),
  payment_reference: z.string().nullable(),
  issued_on: z.string().nullable().describe('Y-m-d'),
  locale: z.string().nullable(),
  currency: z.string(),
  seller: party,
  buyer: party,
  lines: z.array(
    z.object({
      quantity: z.number().int(),
      description: z.string(),
      amount: money,
      vat: z.string().nullable(),
      total_excluding_vat: money,
      total_vat: money,
      total_including_vat: money,
      period: z
        .object({ start: z.string().describe('Y-m-d'), end: z.string().describe('Y-m-d, included') })
        .nullable()
        .describe("the period supplied (a subscription charge's); null when the invoice's date is the date of supply"),
    }),
  ),
  vat_totals: z.array(z.object({ vat: z.string().nullable(), total_excluding_vat: money, total_vat: money, total_including_vat: money })),
  total_excluding_vat: money,
  total_vat: money,
  total_including_vat: money,
  reverse_charge: z.boolean(),
  oss_country: z.string().nullable(),
  credit_notes: z.array(creditNoteResponse),
  pdf_url: z.string().nullable(),
  created_at: z.string(),
});

const stripParty = (value: InvoiceDocument['seller'] | null) =>
  value
    ? {
        name: value.name,
        organization: value.organization,
        address: value.address,
        postal_code: value.postal_code,
        city: value.city,
        country: value.country,
        vat_number: value.vat_number,
        coc_number: value.coc_number ?? null,
      }
    : null;

export function presentIssuedInvoice(
  row: InvoiceRow,
  creditNotes: CreditNoteRow[],
  publicUrl: string,
  timeZone: string,
): z.input<typeof issuedInvoiceResponse> {
  const document = row.document ? (JSON.parse(row.document) as InvoiceDocument) : null;
  const lines = JSON.parse(row.lines) as InvoiceDocument['lines'];
  const cents = (value: number) => formatCents(Number(value));
  return {
    resource: 'invoice',
    id: row.id,
    number: row.number,
    status: row.status,
    not_issued_reason: row.not_issued_reason,
    subscription_id: row.subscription_id,
    link_id: row.link_id,
    order_id: row.order_id,
    customer_id: row.customer_id,
    payment_id: row.payment_id,
    payment_reference: document?.payment_reference ?? null,
    issued_on: document?.issued_on ?? null,
    locale: document?.locale ?? null,
    currency: row.currency,
    seller: stripParty(document?.seller ?? null),
    buyer: stripParty(document?.buyer ?? null),
    lines: lines.map((line) => ({
      quantity: line.quantity,
      description: line.description,
      amount: cents(line.amount),
      vat: line.vat,
      total_excluding_vat: cents(line.total_excluding_vat),
      total_vat: cents(line.total_vat),
      total_including_vat: cents(line.total_including_vat),
      period: line.period ?? null,
    })),
    vat_totals: (document?.vat_totals ?? []).map((total) => ({
      vat: total.vat,
      total_excluding_vat: cents(total.total_excluding_vat),
      total_vat: cents(total.total_vat),
      total_including_vat: cents(total.total_including_vat),
    })),
    total_excluding_vat: cents(row.total_excluding_vat),
    total_vat: cents(row.total_vat),
    total_including_vat: cents(row.total_including_vat),
    reverse_charge: document?.reverse_charge ?? false,
    oss_country: document?.oss_country ?? null,
    credit_notes: creditNotes.map((note) => ({
      id: note.id,
      number: note.number,
      reason: note.reason,
      total_excluding_vat: cents(note.total_excluding_vat),
      total_vat: cents(note.total_vat),
      total_including_vat: cents(note.total_including_vat),
      created_at: formatDateTime(note.created_at, timeZone),
      pdf_url: `${publicUrl}/api/v2/invoices/${row.id}/credit-notes/${note.id}/pdf`,
    })),
    pdf_url: row.status === 'issued' && document ? `${publicUrl}/api/v2/invoices/${row.id}/pdf` : null,
    created_at: formatDateTime(row.created_at, timeZone),
  };
}

export const creditNoteParams = z.object({ id: z.string(), creditNoteId: z.string() });

/** A PDF answer, for OpenAPI: the route sends the bytes itself. */
export const pdfResponse = z.unknown().describe('application/pdf');

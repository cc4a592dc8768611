import type { z } from 'zod';
import { formatCents } from '../../money';
import { formatDateTime } from '../../time';
import type { InvoiceDocument, InvoiceLine } from './document';
import type { CreditNoteRow, InvoiceRow } from './repository';
import type { invoiceResponse, issuedInvoiceResponse } from './schemas';

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

/** An invoice record as `GET /api/v2/subscriptions/{id}/invoices` lists it. */
export function presentInvoice(row: InvoiceRow, timeZone: string): z.input<typeof invoiceResponse> {
  const lines = JSON.parse(row.lines) as InvoiceLine[];
  return {
    id: row.id,
    subscription_id: row.subscription_id,
    payment_id: row.payment_id,
    currency: row.currency,
    lines: lines.map((line) => ({
      ...line,
      amount: formatCents(line.amount),
      total_excluding_vat: formatCents(line.total_excluding_vat),
      total_vat: formatCents(line.total_vat),
      total_including_vat: formatCents(line.total_including_vat),
      period: line.period ?? null,
    })),
    total_excluding_vat: formatCents(row.total_excluding_vat),
    total_vat: formatCents(row.total_vat),
    total_including_vat: formatCents(row.total_including_vat),
    workflow_id: row.workflow_id,
    docstyle_id: row.docstyle_id,
    bookkeeping_status: row.bookkeeping_status,
    ...(row.bookkeeping_reference ? { bookkeeping_reference: row.bookkeeping_reference } : {}),
    ...(row.bookkeeping_error ? { bookkeeping_error: row.bookkeeping_error } : {}),
    created_at: formatDateTime(row.created_at, timeZone),
  };
}

import type { Knex } from 'knex';
import { z } from 'zod';
import { NotFoundError } from '../../errors';
import { pageOf } from '../../db/paging';
import { idFilter, listQueryWith, statusFilter } from '../../http/listFilters';
import { pagedEnvelope, pagedEnvelopeSchema, pageRequestFrom } from '../../http/pagination';
import { idParams } from '../../http/resourceRoutes';
import { defineRoute } from '../../http/route';
import { formatCents } from '../../money';
import { formatDateTime } from '../../time';
import type { InvoiceDocument } from './invoiceDocument';
import { renderInvoicePdf } from './invoicePdf';
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
  subscription_id: z.string(),
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

export interface CreditNoteRow {
  seq?: number;
  id: string;
  account_id: string;
  invoice_id: string;
  payment_id: string;
  number: string;
  reason: 'refund' | 'chargeback';
  source_key: string;
  currency: string;
  lines: string;
  total_excluding_vat: number;
  total_vat: number;
  total_including_vat: number;
  document: string;
  created_at: string;
}

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

export const invoicesQueries = {
  find: (db: Knex, accountId: string, id: string): Promise<InvoiceRow | undefined> =>
    db<InvoiceRow>('invoices').where({ account_id: accountId, id }).first(),
  creditNotesOf: (db: Knex, accountId: string, invoiceIds: string[]): Promise<CreditNoteRow[]> =>
    invoiceIds.length
      ? db<CreditNoteRow>('credit_notes').where({ account_id: accountId }).whereIn('invoice_id', invoiceIds).orderBy('seq')
      : Promise.resolve([]),
  /** The invoice's PDF: only an issued invoice (a number, its snapshot) has one. */
  async pdfOf(db: Knex, accountId: string, id: string): Promise<{ number: string; pdf: Buffer }> {
    const row = await invoicesQueries.find(db, accountId, id);
    if (!row || row.status !== 'issued' || !row.document || !row.number) throw new NotFoundError('Invoice');
    return { number: row.number, pdf: await renderInvoicePdf(JSON.parse(row.document) as InvoiceDocument) };
  },
};

const invoiceListQuery = listQueryWith({
  customer_id: idFilter('cus'),
  subscription_id: idFilter('sub'),
  status: statusFilter(['issued', 'not_issued'] as const),
});

const sendPdf = (res: import('express').Response, name: string, pdf: Buffer) => {
  res
    .status(200)
    .type('application/pdf')
    .setHeader('Content-Disposition', `inline; filename="${name.replace(/[^\w.-]/g, '_')}.pdf"`);
  res.send(pdf);
};

/** `GET /api/v2/invoices`, `/api/v2/invoices/{id}` and its PDF (extensions): the account's invoices and credit notes. */
export const invoiceApiRoutes = [
  defineRoute({
    methods: ['get'],
    path: '/api/v2/invoices',
    operationId: 'listInvoices',
    summary: 'List invoices, oldest first (filters: customer_id, subscription_id, status)',
    tag: 'Invoices',
    status: 200,
    extension: true,
    query: invoiceListQuery,
    response: pagedEnvelopeSchema(issuedInvoiceResponse),
    invalidMessage: 'Could not list invoices. Some parameters are invalid',
    async handle({ ctx, account, query }) {
      const request = pageRequestFrom(query);
      const filters = Object.fromEntries(
        Object.entries({ customer_id: query.customer_id, subscription_id: query.subscription_id, status: query.status }).filter(
          (entry): entry is [string, string] => entry[1] !== undefined,
        ),
      );
      const page = await pageOf<InvoiceRow>(ctx.db('invoices').where({ account_id: account.id, ...filters }), request);
      const notes = await invoicesQueries.creditNotesOf(
        ctx.db,
        account.id,
        page.items.map((row) => row.id),
      );
      const items = page.items.map((row) =>
        presentIssuedInvoice(
          row,
          notes.filter((note) => note.invoice_id === row.id),
          ctx.config.publicUrl,
          ctx.config.APP_TIMEZONE,
        ),
      );
      return pagedEnvelope({ items, total: page.total }, request, `${ctx.config.publicUrl}/api/v2/invoices`, filters);
    },
  }),
  defineRoute({
    methods: ['get'],
    path: '/api/v2/invoices/:id',
    operationId: 'getInvoice',
    summary: 'Get an invoice with its credit notes',
    tag: 'Invoices',
    status: 200,
    extension: true,
    params: idParams,
    response: issuedInvoiceResponse,
    invalidMessage: 'Could not get the invoice',
    async handle({ ctx, account, params }) {
      const row = await invoicesQueries.find(ctx.db, account.id, params.id);
      if (!row) throw new NotFoundError('Invoice');
      const notes = await invoicesQueries.creditNotesOf(ctx.db, account.id, [row.id]);
      return presentIssuedInvoice(row, notes, ctx.config.publicUrl, ctx.config.APP_TIMEZONE);
    },
  }),
  defineRoute({
    methods: ['get'],
    path: '/api/v2/invoices/:id/pdf',
    operationId: 'getInvoicePdf',
    summary: 'The invoice as a PDF (application/pdf), in the customer’s language',
    tag: 'Invoices',
    status: 200,
    extension: true,
    params: idParams,
    response: z.unknown().describe('application/pdf'),
    invalidMessage: 'Could not get the invoice',
    async handle({ ctx, account, params, res }) {
      const { number, pdf } = await invoicesQueries.pdfOf(ctx.db, account.id, params.id);
      sendPdf(res, number, pdf);
      return undefined;
    },
  }),
  defineRoute({
    methods: ['get'],
    path: '/api/v2/invoices/:id/credit-notes/:creditNoteId/pdf',
    operationId: 'getCreditNotePdf',
    summary: 'A credit note of the invoice as a PDF (application/pdf)',
    tag: 'Invoices',
    status: 200,
    extension: true,
    params: z.object({ id: z.string(), creditNoteId: z.string() }),
    response: z.unknown().describe('application/pdf'),
    invalidMessage: 'Could not get the credit note',
    async handle({ ctx, account, params, res }) {
      const note = await ctx
        .db<CreditNoteRow>('credit_notes')
        .where({ account_id: account.id, invoice_id: params.id, id: params.creditNoteId })
        .first();
      if (!note) throw new NotFoundError('Credit note');
      sendPdf(res, note.number, await renderInvoicePdf(JSON.parse(note.document) as InvoiceDocument));
      return undefined;
    },
  }),
];

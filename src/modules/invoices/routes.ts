import { idFilter, listQueryWith, statusFilter } from '../../validation/listFilters';
import { pagedEnvelope, pagedEnvelopeSchema, pageQuerySchema, pageRequestFrom } from '../../validation/pagination';
import { sendPdf } from '../../http/pdf';
import { idParams } from '../../http/resourceRoutes';
import { defineRoute } from '../../http/route';
import { presentInvoice } from './presenter';
import { creditNoteParams, invoiceResponse, issuedInvoiceResponse, pdfResponse } from './schemas';
import { creditNotePdf, getInvoice, invoicePdf, listInvoices, listSubscriptionInvoices } from './service';

const invoiceListQuery = listQueryWith({
  customer_id: idFilter('cus'),
  subscription_id: idFilter('sub'),
  status: statusFilter(['issued', 'not_issued'] as const),
});

/**
 * Every invoice endpoint (extensions): `GET /api/v2/subscriptions/{id}/invoices`, the invoice records of a
 * subscription's paid charges; `GET /api/v2/invoices`, `/api/v2/invoices/{id}` and the PDFs of an invoice and its
 * credit notes.
 */
export const invoiceRoutes = [
  defineRoute({
    methods: ['get'],
    path: '/api/v2/subscriptions/:id/invoices',
    operationId: 'listSubscriptionInvoices',
    summary: 'List the invoice records of a subscription (one per paid charge with invoice rules)',
    tag: 'Subscriptions',
    status: 200,
    extension: true,
    params: idParams,
    query: pageQuerySchema,
    response: pagedEnvelopeSchema(invoiceResponse),
    invalidMessage: 'Could not list invoices. Some parameters are invalid',
    async handle({ ctx, account, params, query }) {
      const request = pageRequestFrom(query);
      const page = await listSubscriptionInvoices(ctx, account, params.id, request);
      const items = page.items.map((row) => presentInvoice(row, ctx.config.APP_TIMEZONE));
      return pagedEnvelope({ items, total: page.total }, request, `${ctx.config.publicUrl}/api/v2/subscriptions/${params.id}/invoices`);
    },
  }),
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
      const page = await listInvoices(ctx, account, filters, request);
      return pagedEnvelope(page, request, `${ctx.config.publicUrl}/api/v2/invoices`, filters);
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
      return getInvoice(ctx, account, params.id);
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
    response: pdfResponse,
    invalidMessage: 'Could not get the invoice',
    async handle({ ctx, account, params, res }) {
      const { number, pdf } = await invoicePdf(ctx, account, params.id);
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
    params: creditNoteParams,
    response: pdfResponse,
    invalidMessage: 'Could not get the credit note',
    async handle({ ctx, account, params, res }) {
      const { number, pdf } = await creditNotePdf(ctx, account, params.id, params.creditNoteId);
      sendPdf(res, number, pdf);
      return undefined;
    },
  }),
];

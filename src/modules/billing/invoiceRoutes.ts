import { z } from 'zod';
import { NotFoundError } from '../../http/errors';
import { pagedEnvelope, pagedEnvelopeSchema, pageQuerySchema, pageRequestFrom } from '../../http/pagination';
import { defineRoute } from '../../http/route';
import { pageOf } from '../../db/paging';
import { formatCents } from '../../money';
import { formatDateTime } from '../../time';
import { subscriptionsRepository } from '../subscriptions/repository';
import type { InvoiceLine, InvoiceRow } from './invoices';

const money = z.string().describe('decimal, e.g. "12.50"');

const invoiceLineResponse = z.object({
  quantity: z.number().int(),
  description: z.string(),
  amount: money.describe('per unit, excluding VAT'),
  vat: z.string().nullable().describe('percentage'),
  ledger_account_id: z.string().nullable(),
  total_excluding_vat: money,
  total_vat: money.describe('rounded half-up per line'),
  total_including_vat: money,
});

export const invoiceResponse = z.object({
  id: z.string(),
  subscription_id: z.string(),
  payment_id: z.string(),
  currency: z.string(),
  lines: z.array(invoiceLineResponse),
  total_excluding_vat: money,
  total_vat: money,
  total_including_vat: money,
  workflow_id: z.string().nullable(),
  docstyle_id: z.string().nullable(),
  bookkeeping_status: z.enum(['none', 'pending']),
  created_at: z.string().describe('Y-m-d H:i:s in APP_TIMEZONE'),
});

function presentInvoice(row: InvoiceRow, timeZone: string): z.input<typeof invoiceResponse> {
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
    })),
    total_excluding_vat: formatCents(row.total_excluding_vat),
    total_vat: formatCents(row.total_vat),
    total_including_vat: formatCents(row.total_including_vat),
    workflow_id: row.workflow_id,
    docstyle_id: row.docstyle_id,
    bookkeeping_status: row.bookkeeping_status,
    created_at: formatDateTime(row.created_at, timeZone),
  };
}

/** `GET /api/v2/subscriptions/{id}/invoices` (extension): the invoice records of its paid charges, oldest first. */
export const invoiceRoutes = [
  defineRoute({
    methods: ['get'],
    path: '/api/v2/subscriptions/:id/invoices',
    operationId: 'listSubscriptionInvoices',
    summary: 'List the invoice records of a subscription (one per paid charge with invoice rules)',
    tag: 'Subscriptions',
    status: 200,
    extension: true,
    params: z.object({ id: z.string() }),
    query: pageQuerySchema,
    response: pagedEnvelopeSchema(invoiceResponse),
    invalidMessage: 'Could not list invoices. Some parameters are invalid',
    async handle({ ctx, account, params, query }) {
      if (!(await subscriptionsRepository.find(ctx.db, account.id, params.id))) throw new NotFoundError('Subscription');
      const request = pageRequestFrom(query);
      const page = await pageOf<InvoiceRow>(ctx.db('invoices').where({ account_id: account.id, subscription_id: params.id }), request);
      const items = page.items.map((row) => presentInvoice(row, ctx.config.APP_TIMEZONE));
      return pagedEnvelope({ items, total: page.total }, request, `${ctx.config.publicUrl}/api/v2/subscriptions/${params.id}/invoices`);
    },
  }),
];

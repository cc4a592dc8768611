import { pagedEnvelope, pagedEnvelopeSchema, pageQuerySchema, pageRequestFrom } from '../../validation/pagination';
import { idParams } from '../../http/resourceRoutes';
import { defineRoute } from '../../http/route';
import { presentInvoice } from './presenter';
import { invoiceResponse } from './schemas';
import { listSubscriptionInvoices } from './service';

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
];

import { pagedEnvelope, pagedEnvelopeSchema, pageQuerySchema, pageRequestFrom } from '../../http/pagination';
import { defineRoute } from '../../http/route';
import { presentPaymentLinks } from './presenter';
import { linkIdParams, paymentLinkResponse } from './schemas';
import { getPaymentLink, listPaymentLinks } from './service';

const PATH = '/api/v2/links';

export const linkRoutes = [
  defineRoute({
    methods: ['get'],
    path: PATH,
    operationId: 'listPaymentLinks',
    summary: 'List payment links',
    tag: 'Payment links',
    status: 200,
    query: pageQuerySchema,
    response: pagedEnvelopeSchema(paymentLinkResponse),
    invalidMessage: 'Could not list payment links. Some parameters are invalid',
    async handle({ ctx, account, query }) {
      const request = pageRequestFrom(query);
      const page = await listPaymentLinks(ctx, account, request);
      const items = await presentPaymentLinks(ctx.db, ctx.config, account.id, page.items);
      return pagedEnvelope({ items, total: page.total }, request, ctx.config.publicUrl + PATH);
    },
  }),
  defineRoute({
    methods: ['get'],
    path: `${PATH}/:id`,
    operationId: 'getPaymentLink',
    summary: 'Get one payment link',
    tag: 'Payment links',
    status: 200,
    extension: true,
    params: linkIdParams,
    response: paymentLinkResponse,
    invalidMessage: 'Could not get payment link',
    async handle({ ctx, account, params }) {
      const [link] = await presentPaymentLinks(ctx.db, ctx.config, account.id, [await getPaymentLink(ctx, account, params.id)]);
      return link;
    },
  }),
];

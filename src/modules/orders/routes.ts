import { pagedEnvelope, pagedEnvelopeSchema, pageQuerySchema, pageRequestFrom } from '../../http/pagination';
import { defineRoute } from '../../http/route';
import { presentOneOrder, presentOrders } from './presenter';
import { orderIdParams, orderResponse } from './schemas';
import { getOrder, listOrders } from './service';

const PATH = '/api/v2/orders';

export const orderRoutes = [
  defineRoute({
    methods: ['get'],
    path: PATH,
    operationId: 'listOrders',
    summary: 'List orders with their lines',
    tag: 'Orders',
    status: 200,
    query: pageQuerySchema,
    response: pagedEnvelopeSchema(orderResponse),
    invalidMessage: 'Could not list orders. Some parameters are invalid',
    async handle({ ctx, account, query }) {
      const request = pageRequestFrom(query);
      const page = await listOrders(ctx, account, request);
      const items = await presentOrders(ctx.db, ctx.config, account.id, page.items);
      return pagedEnvelope({ items, total: page.total }, request, ctx.config.publicUrl + PATH);
    },
  }),
  defineRoute({
    methods: ['get'],
    path: `${PATH}/:id`,
    operationId: 'getOrder',
    summary: 'Get one order with its lines',
    tag: 'Orders',
    status: 200,
    extension: true,
    params: orderIdParams,
    response: orderResponse,
    invalidMessage: 'Could not get order',
    async handle({ ctx, account, params }) {
      return presentOneOrder(ctx.db, ctx.config, account.id, await getOrder(ctx, account, params.id));
    },
  }),
];

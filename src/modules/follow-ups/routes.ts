import { pagedEnvelope, pagedEnvelopeSchema, pageQuerySchema, pageRequestFrom } from '../../http/pagination';
import { defineRoute } from '../../http/route';
import { presentFollowUps } from './presenter';
import { followUpIdParams, followUpResponse } from './schemas';
import { getFollowUp, listFollowUps } from './service';

const PATH = '/api/v2/follow-ups';

export const followUpRoutes = [
  defineRoute({
    methods: ['get'],
    path: PATH,
    operationId: 'listFollowUps',
    summary: 'List follow-ups of failed payments',
    tag: 'Follow-ups',
    status: 200,
    query: pageQuerySchema,
    response: pagedEnvelopeSchema(followUpResponse),
    invalidMessage: 'Could not list follow-ups. Some parameters are invalid',
    async handle({ ctx, account, query }) {
      const request = pageRequestFrom(query);
      const page = await listFollowUps(ctx, account, request);
      const items = await presentFollowUps(ctx.db, ctx.config, account.id, page.items);
      return pagedEnvelope({ items, total: page.total }, request, ctx.config.publicUrl + PATH);
    },
  }),
  defineRoute({
    methods: ['get'],
    path: `${PATH}/:id`,
    operationId: 'getFollowUp',
    summary: 'Get one follow-up',
    tag: 'Follow-ups',
    status: 200,
    extension: true,
    params: followUpIdParams,
    response: followUpResponse,
    invalidMessage: 'Could not get follow-up',
    async handle({ ctx, account, params }) {
      const [followUp] = await presentFollowUps(ctx.db, ctx.config, account.id, [await getFollowUp(ctx, account, params.id)]);
      return followUp;
    },
  }),
];

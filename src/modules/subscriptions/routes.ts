import { pagedEnvelope, pagedEnvelopeSchema, pageQuerySchema, pageRequestFrom } from '../../http/pagination';
import { defineRoute } from '../../http/route';
import { presentSubscriptions } from './presenter';
import { createSubscriptionBody, subscriptionIdParams } from './requestSchemas';
import { subscriptionResponse } from './schemas';
import { createSubscription, getSubscription, listSubscriptions } from './service';

const PATH = '/api/v2/subscriptions';

export const subscriptionRoutes = [
  defineRoute({
    methods: ['get'],
    path: PATH,
    operationId: 'listSubscriptions',
    summary: 'List subscriptions with their rules and customer',
    tag: 'Subscriptions',
    status: 200,
    query: pageQuerySchema,
    response: pagedEnvelopeSchema(subscriptionResponse),
    invalidMessage: 'Could not list subscriptions. Some parameters are invalid',
    async handle({ ctx, account, query }) {
      const request = pageRequestFrom(query);
      const page = await listSubscriptions(ctx, account, request);
      const items = await presentSubscriptions(ctx.db, ctx.config, account.id, page.items);
      return pagedEnvelope({ items, total: page.total }, request, ctx.config.publicUrl + PATH);
    },
  }),
  defineRoute({
    methods: ['post'],
    path: PATH,
    operationId: 'createSubscription',
    summary: 'Create a subscription billed by rules under a mandate',
    tag: 'Subscriptions',
    status: 201,
    body: createSubscriptionBody,
    response: subscriptionResponse,
    invalidMessage: 'Could not create subscription. Some fields contain invalid data',
    async handle({ ctx, account, body }) {
      const [presented] = await presentSubscriptions(ctx.db, ctx.config, account.id, [await createSubscription(ctx, account, body)]);
      return presented;
    },
  }),
  defineRoute({
    methods: ['get'],
    path: `${PATH}/:id`,
    operationId: 'getSubscription',
    summary: 'Get one subscription with its rules and customer',
    tag: 'Subscriptions',
    status: 200,
    extension: true,
    params: subscriptionIdParams,
    response: subscriptionResponse,
    invalidMessage: 'Could not get subscription',
    async handle({ ctx, account, params }) {
      const [presented] = await presentSubscriptions(ctx.db, ctx.config, account.id, [await getSubscription(ctx, account, params.id)]);
      return presented;
    },
  }),
];

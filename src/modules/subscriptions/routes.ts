import { defineRoute } from '../../http/route';
import { listRoute, readOneRoute } from '../../http/resourceRoutes';
import { presentSubscriptions } from './presenter';
import { createSubscriptionBody } from './requestSchemas';
import { subscriptionResponse } from './schemas';
import { createSubscription, getSubscription, listSubscriptions } from './service';

const names = { path: '/api/v2/subscriptions', tag: 'Subscriptions', plural: 'subscriptions', item: subscriptionResponse };
const present = presentSubscriptions;

export const subscriptionRoutes = [
  listRoute({
    ...names,
    operationId: 'listSubscriptions',
    summary: 'List subscriptions with their rules and customer',
    list: listSubscriptions,
    present,
  }),
  defineRoute({
    methods: ['post'],
    path: names.path,
    operationId: 'createSubscription',
    summary: 'Create a subscription billed by rules under a mandate',
    tag: names.tag,
    status: 201,
    body: createSubscriptionBody,
    response: subscriptionResponse,
    invalidMessage: 'Could not create subscription. Some fields contain invalid data',
    async handle({ ctx, account, body, idempotency }) {
      const [presented] = await present(ctx.db, ctx.config, account.id, [await createSubscription(ctx, account, body, idempotency)]);
      return presented;
    },
  }),
  readOneRoute({
    ...names,
    operationId: 'getSubscription',
    summary: 'Get one subscription with its rules and customer',
    get: getSubscription,
    present,
  }),
];

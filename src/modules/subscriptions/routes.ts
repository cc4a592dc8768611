import { defineRoute } from '../../http/route';
import { listRoute, readOneRoute } from '../../http/resourceRoutes';
import { presentSubscriptions } from './presenter';
import { idParams } from '../../http/resourceRoutes';
import { createSubscriptionBody, subscriptionListQuery, updateSubscriptionBody } from './requestSchemas';
import { subscriptionResponse } from './schemas';
import { createSubscription, getSubscription, listSubscriptions, updateSubscription } from './service';

const names = { path: '/api/v2/subscriptions', tag: 'Subscriptions', plural: 'subscriptions', item: subscriptionResponse };
const present = presentSubscriptions;

export const subscriptionRoutes = [
  listRoute({
    ...names,
    operationId: 'listSubscriptions',
    summary: 'List subscriptions with their rules and customer (extension filters: customer_id, status, shop_subscription_id)',
    query: subscriptionListQuery,
    filtersOf: (query) => ({ customer_id: query.customer_id, status: query.status, shop_subscription_id: query.shop_subscription_id }),
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
  defineRoute({
    methods: ['patch'],
    path: `${names.path}/:id`,
    operationId: 'updateSubscription',
    summary: 'Change the name, the mandate, or the rules from the next period not charged yet (charged periods never change)',
    tag: names.tag,
    status: 200,
    extension: true,
    params: idParams,
    body: updateSubscriptionBody,
    response: subscriptionResponse,
    invalidMessage: 'Could not update subscription. Some fields contain invalid data',
    async handle({ ctx, account, params, body }) {
      const [presented] = await present(ctx.db, ctx.config, account.id, [await updateSubscription(ctx, account, params.id, body)]);
      return presented;
    },
  }),
];

import { defineRoute } from '../../http/route';
import { subscriptionSummaryResponse } from './schemas';
import { subscriptionSummary } from './service';

/** The account's figures, read across the modules below; OpenAPI lists them under Subscriptions, before their list. */
export const reportRoutes = [
  defineRoute({
    methods: ['get'],
    path: '/api/v2/subscription-summary',
    operationId: 'getSubscriptionSummary',
    summary: 'Active and paused subscriptions, monthly recurring revenue and open follow-ups of the account (the store dashboard)',
    tag: 'Subscriptions',
    status: 200,
    extension: true,
    response: subscriptionSummaryResponse,
    invalidMessage: 'Could not get the subscription summary',
    async handle({ ctx, account }) {
      return subscriptionSummary(ctx, account);
    },
  }),
];

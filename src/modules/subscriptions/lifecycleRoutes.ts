import { idParams } from '../../http/resourceRoutes';
import { defineRoute } from '../../http/route';
import { presentSubscription } from './presenter';
import { cancelSubscriptionBody, pauseSubscriptionBody } from './requestSchemas';
import { subscriptionResponse } from './schemas';
import { cancelSubscription, pauseSubscription, resumeSubscription, skipNextCharge } from './service';

const path = '/api/v2/subscriptions/:id';
const tag = 'Subscriptions';

/** Extensions: cancel (optionally on a date), pause (optionally until a date), resume and skip the next charge. */
export const subscriptionLifecycleRoutes = [
  defineRoute({
    methods: ['delete'],
    path,
    operationId: 'cancelSubscription',
    summary: 'Cancel a subscription: no charge on or after cancel_at (today when absent)',
    tag,
    status: 200,
    extension: true,
    params: idParams,
    body: cancelSubscriptionBody,
    response: subscriptionResponse,
    invalidMessage: 'Could not cancel subscription. Some fields contain invalid data',
    async handle({ ctx, account, params, body }) {
      return presentSubscription(ctx, account.id, await cancelSubscription(ctx, account, params.id, body.cancel_at));
    },
  }),
  defineRoute({
    methods: ['post'],
    path: `${path}/pause`,
    operationId: 'pauseSubscription',
    summary: 'Pause a subscription: its charges are skipped (not made up later) until resume_at or until resumed',
    tag,
    status: 200,
    extension: true,
    params: idParams,
    body: pauseSubscriptionBody,
    response: subscriptionResponse,
    invalidMessage: 'Could not pause subscription. Some fields contain invalid data',
    async handle({ ctx, account, params, body }) {
      return presentSubscription(ctx, account.id, await pauseSubscription(ctx, account, params.id, body.resume_at));
    },
  }),
  defineRoute({
    methods: ['post'],
    path: `${path}/resume`,
    operationId: 'resumeSubscription',
    summary: 'Resume a paused subscription: charges dated today or later are made again',
    tag,
    status: 200,
    extension: true,
    params: idParams,
    response: subscriptionResponse,
    invalidMessage: 'Could not resume subscription. Some parameters are invalid',
    async handle({ ctx, account, params }) {
      return presentSubscription(ctx, account.id, await resumeSubscription(ctx, account, params.id));
    },
  }),
  defineRoute({
    methods: ['post'],
    path: `${path}/skip`,
    operationId: 'skipSubscriptionCharge',
    summary: 'Skip the next charge of an active subscription: never made, counted against times like a paused charge',
    tag,
    status: 200,
    extension: true,
    params: idParams,
    response: subscriptionResponse,
    invalidMessage: 'Could not skip the next charge. Some parameters are invalid',
    async handle({ ctx, account, params }) {
      return presentSubscription(ctx, account.id, await skipNextCharge(ctx, account, params.id));
    },
  }),
];

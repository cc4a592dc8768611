import { answerNotKept } from '../../http/idempotency';
import { defineRoute } from '../../http/route';
import { presentPortalSession } from './presenter';
import { createPortalSessionBody, portalSessionParams, portalSessionResponse } from './schemas';
import { createPortalSession } from './service';

export const portalRoutes = [
  defineRoute({
    methods: ['post'],
    path: '/api/v2/customers/:customerId/portal-sessions',
    operationId: 'createPortalSession',
    summary:
      'Create a single-use link (valid 1 hour) that opens the self-service portal for a customer; ' +
      'the answer holds the link once and is not replayed for an Idempotency-Key (a retry makes a new link)',
    tag: 'Portal',
    status: 201,
    extension: true,
    params: portalSessionParams,
    body: createPortalSessionBody,
    response: portalSessionResponse,
    invalidMessage: 'Could not create portal session. Some fields contain invalid data',
    async handle({ ctx, account, params, body, res }) {
      answerNotKept(res);
      return presentPortalSession(await createPortalSession(ctx, account, params.customerId, body), ctx.config);
    },
  }),
];

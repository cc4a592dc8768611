import { idParams } from '../../http/resourceRoutes';
import { defineRoute } from '../../http/route';
import { presentRefund } from './presenter';
import { createRefundBody, refundListResponse, refundParams, refundResponse } from './schemas';
import { getRefund, listRefunds, requestRefund } from './service';

export const refundRoutes = [
  defineRoute({
    methods: ['post'],
    path: '/api/v2/payments/:id/refunds',
    operationId: 'createRefund',
    summary: 'Refund part or all of a paid payment (never more than was paid minus refunded minus charged back)',
    tag: 'Payments',
    status: 201,
    extension: true,
    params: idParams,
    body: createRefundBody,
    response: refundResponse,
    invalidMessage: 'Could not refund payment',
    async handle({ ctx, account, params, body, idempotency }) {
      return presentRefund(await requestRefund(ctx, account, params.id, body, idempotency), ctx.config);
    },
  }),
  defineRoute({
    methods: ['get'],
    path: '/api/v2/payments/:id/refunds',
    operationId: 'listRefunds',
    summary: "A payment's refunds, oldest first",
    tag: 'Payments',
    status: 200,
    extension: true,
    params: idParams,
    response: refundListResponse,
    invalidMessage: 'Could not list refunds',
    async handle({ ctx, account, params }) {
      return { data: (await listRefunds(ctx, account, params.id)).map((row) => presentRefund(row, ctx.config)) };
    },
  }),
  defineRoute({
    methods: ['get'],
    path: '/api/v2/payments/:id/refunds/:refund_id',
    operationId: 'getRefund',
    summary: 'One refund of a payment',
    tag: 'Payments',
    status: 200,
    extension: true,
    params: refundParams,
    response: refundResponse,
    invalidMessage: 'Could not get refund',
    async handle({ ctx, account, params }) {
      return presentRefund(await getRefund(ctx, account, params.id, params.refund_id), ctx.config);
    },
  }),
];

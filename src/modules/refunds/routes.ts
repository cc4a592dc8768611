import type { Config } from '../../config';
import { idParams } from '../../http/resourceRoutes';
import { defineRoute } from '../../http/route';
import { formatCents } from '../../money';
import { formatDateTime } from '../../time';
import type { RefundRow } from './repository';
import { createRefundBody, refundListResponse, refundParams, refundResponse, type RefundResponse } from './schemas';
import { getRefund, listRefunds, requestRefund } from './service';

export function presentRefund(row: RefundRow, config: Pick<Config, 'APP_TIMEZONE'>): RefundResponse {
  return {
    id: row.id,
    payment_id: row.payment_id,
    provider_refund_id: row.provider_refund_id,
    status: row.status,
    amount: formatCents(Number(row.amount)),
    currency: row.currency,
    description: row.description,
    failure_reason: row.failure_reason,
    created_at: formatDateTime(row.created_at, config.APP_TIMEZONE),
  };
}

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

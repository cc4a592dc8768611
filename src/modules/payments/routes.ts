import { idParams, listRoute } from '../../http/resourceRoutes';
import { defineRoute } from '../../http/route';
import { presentCreatedPayment, presentPaymentDetail, presentPaymentList } from './presenter';
import {
  createPaymentBody,
  methodsQuery,
  methodsResponse,
  paymentDetailResponse,
  paymentListItem,
  paymentListQuery,
  paymentResponse,
} from './schemas';
import { createPayment, getPayment, listPayments, offeredMethods } from './service';

export const paymentRoutes = [
  listRoute({
    path: '/api/v2/payments',
    tag: 'Payments',
    plural: 'payments',
    item: paymentListItem,
    operationId: 'listPayments',
    summary: 'List payments, newest last (filters: customer_id, subscription_id, status)',
    extension: true,
    query: paymentListQuery,
    filtersOf: (query) => ({ customer_id: query.customer_id, subscription_id: query.subscription_id, status: query.status }),
    list: listPayments,
    present: (_db, config, _accountId, rows) => presentPaymentList(rows, config),
  }),
  defineRoute({
    methods: ['post'],
    path: '/api/v2/payments',
    operationId: 'createPayment',
    summary: 'Create a one-off payment with a checkout at the provider',
    tag: 'Payments',
    status: 201,
    body: createPaymentBody,
    response: paymentResponse,
    invalidMessage: 'Could not create payment. Some fields contain invalid data',
    async handle({ ctx, account, body, idempotency }) {
      return presentCreatedPayment(await createPayment(ctx, account, body, idempotency));
    },
  }),
  defineRoute({
    methods: ['get'],
    path: '/api/v2/payments/:id',
    operationId: 'getPayment',
    summary: 'Get one payment with its status history',
    tag: 'Payments',
    status: 200,
    extension: true,
    params: idParams,
    response: paymentDetailResponse,
    invalidMessage: 'Could not get payment',
    async handle({ ctx, account, params }) {
      const { row, history, deliveries } = await getPayment(ctx, account, params.id);
      return presentPaymentDetail(row, history, deliveries, ctx.config);
    },
  }),
  defineRoute({
    methods: ['get'],
    path: '/api/v2/methods',
    operationId: 'listMethods',
    summary: "The payment methods of the spec's enum that the account's provider has enabled (the plugin offers these)",
    tag: 'Payments',
    status: 200,
    extension: true,
    query: methodsQuery,
    response: methodsResponse,
    invalidMessage: 'Could not list payment methods',
    async handle({ ctx, account, query }) {
      return { data: (await offeredMethods(ctx, account, query.sequence_type)).map((id) => ({ id })) };
    },
  }),
];

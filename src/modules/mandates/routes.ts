import { defineRoute } from '../../http/route';
import { presentMandate } from './presenter';
import { createMandateBody, customerMandatesParams, mandateResponse } from './schemas';
import { createMandate } from './service';

export const mandateRoutes = [
  defineRoute({
    methods: ['post'],
    path: '/api/v2/customers/:customerId/mandates',
    operationId: 'createMandate',
    summary: 'Create a SEPA direct-debit mandate for a customer (also at the payment provider)',
    tag: 'Mandates',
    status: 201,
    params: customerMandatesParams,
    body: createMandateBody,
    response: mandateResponse,
    invalidMessage: 'Could not create mandate. Some fields contain invalid data',
    async handle({ ctx, account, params, body, idempotency }) {
      return presentMandate(await createMandate(ctx, account, params.customerId, body, idempotency));
    },
  }),
];

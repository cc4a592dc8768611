import { defineRoute } from '../../http/route';
import { presentMandate } from './presenter';
import { deleteCustomerMandate, getCustomerMandate, listCustomerMandates } from './customerMandatesService';
import { createMandateBody, customerMandateParams, customerMandatesParams, mandateListResponse, mandateResponse } from './schemas';
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
  defineRoute({
    methods: ['get'],
    path: '/api/v2/customers/:customerId/mandates',
    operationId: 'listCustomerMandates',
    summary: 'List the mandates of a customer, oldest first (revoked ones too, as invalid)',
    tag: 'Mandates',
    status: 200,
    extension: true,
    params: customerMandatesParams,
    response: mandateListResponse,
    invalidMessage: 'Could not list mandates. Some parameters are invalid',
    async handle({ ctx, account, params }) {
      return { data: (await listCustomerMandates(ctx, account, params.customerId)).map(presentMandate) };
    },
  }),
  defineRoute({
    methods: ['get'],
    path: '/api/v2/customers/:customerId/mandates/:mandateId',
    operationId: 'getCustomerMandate',
    summary: 'Get one mandate of a customer',
    tag: 'Mandates',
    status: 200,
    extension: true,
    params: customerMandateParams,
    response: mandateResponse,
    invalidMessage: 'Could not get mandate. Some parameters are invalid',
    async handle({ ctx, account, params }) {
      return presentMandate(await getCustomerMandate(ctx, account, params.customerId, params.mandateId));
    },
  }),
  defineRoute({
    methods: ['delete'],
    path: '/api/v2/customers/:customerId/mandates/:mandateId',
    operationId: 'revokeCustomerMandate',
    summary: 'Revoke a mandate at the provider and here; 409 (naming them) while a draft, active or paused subscription uses it',
    tag: 'Mandates',
    status: 200,
    extension: true,
    params: customerMandateParams,
    response: mandateResponse,
    invalidMessage: 'Could not revoke mandate. Some parameters are invalid',
    conflict: 'A draft, active or paused subscription uses the mandate; the message names them (code mandate_in_use)',
    async handle({ ctx, account, params }) {
      return presentMandate(await deleteCustomerMandate(ctx, account, params.customerId, params.mandateId));
    },
  }),
];

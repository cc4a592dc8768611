import { pagedEnvelope, pagedEnvelopeSchema, pageQuerySchema, pageRequestFrom } from '../../http/pagination';
import { defineRoute } from '../../http/route';
import { presentCustomer } from './presenter';
import { createCustomerBody, customerIdParams, customerResponse, updateCustomerBody } from './schemas';
import { createCustomer, getCustomer, listCustomers, updateCustomer } from './service';

const PATH = '/api/v2/customers';

export const customerRoutes = [
  defineRoute({
    methods: ['get'],
    path: PATH,
    operationId: 'listCustomers',
    summary: 'List customers',
    tag: 'Customers',
    status: 200,
    query: pageQuerySchema,
    response: pagedEnvelopeSchema(customerResponse),
    invalidMessage: 'Could not list customers. Some parameters are invalid',
    async handle({ ctx, account, query }) {
      const request = pageRequestFrom(query);
      const page = await listCustomers(ctx, account, request);
      const items = page.items.map((row) => presentCustomer(row, ctx.config));
      return pagedEnvelope({ items, total: page.total }, request, ctx.config.publicUrl + PATH);
    },
  }),
  defineRoute({
    methods: ['post'],
    path: PATH,
    operationId: 'createCustomer',
    summary: 'Create a customer (also at the payment provider)',
    tag: 'Customers',
    status: 201,
    body: createCustomerBody,
    response: customerResponse,
    invalidMessage: 'Could not create customer. Some fields contain invalid data',
    async handle({ ctx, account, body }) {
      return presentCustomer(await createCustomer(ctx, account, body), ctx.config);
    },
  }),
  defineRoute({
    methods: ['get'],
    path: `${PATH}/:id`,
    operationId: 'getCustomer',
    summary: 'Get one customer',
    tag: 'Customers',
    status: 200,
    extension: true,
    params: customerIdParams,
    response: customerResponse,
    invalidMessage: 'Could not get customer',
    async handle({ ctx, account, params }) {
      return presentCustomer(await getCustomer(ctx, account, params.id), ctx.config);
    },
  }),
  defineRoute({
    methods: ['put', 'patch'],
    path: `${PATH}/:id`,
    operationId: 'updateCustomer',
    summary: 'Update a customer; omitted fields keep their value (PATCH is a synonym)',
    tag: 'Customers',
    status: 200,
    params: customerIdParams,
    body: updateCustomerBody,
    response: customerResponse,
    invalidMessage: 'Could not update customer. Some fields contain invalid data',
    async handle({ ctx, account, params, body }) {
      return presentCustomer(await updateCustomer(ctx, account, params.id, body), ctx.config);
    },
  }),
];

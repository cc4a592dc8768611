import { defineRoute } from '../../http/route';
import { idParams, listRoute, readOneRoute } from '../../http/resourceRoutes';
import { presentCustomers } from './presenter';
import { createCustomerBody, customerListQuery, customerResponse, updateCustomerBody } from './schemas';
import { createCustomer, getCustomer, listCustomers, updateCustomer } from './service';

const names = { path: '/api/v2/customers', tag: 'Customers', plural: 'customers', item: customerResponse };
const present = presentCustomers;

export const customerRoutes = [
  listRoute({
    ...names,
    operationId: 'listCustomers',
    summary: 'List customers (extension: ?email= finds the customers with that e-mail address)',
    query: customerListQuery,
    filtersOf: (query) => ({ email: query.email }),
    list: (ctx, account, request, filters) => listCustomers(ctx, account, request, filters.email),
    present,
  }),
  defineRoute({
    methods: ['post'],
    path: names.path,
    operationId: 'createCustomer',
    summary: 'Create a customer (also at the payment provider)',
    tag: names.tag,
    status: 201,
    body: createCustomerBody,
    response: customerResponse,
    invalidMessage: 'Could not create customer. Some fields contain invalid data',
    async handle({ ctx, account, body, idempotency }) {
      const [customer] = present(ctx.db, ctx.config, account.id, [await createCustomer(ctx, account, body, idempotency)]);
      return customer;
    },
  }),
  readOneRoute({ ...names, operationId: 'getCustomer', summary: 'Get one customer', get: getCustomer, present }),
  defineRoute({
    methods: ['put', 'patch'],
    path: `${names.path}/:id`,
    operationId: 'updateCustomer',
    summary: 'Update a customer; omitted fields keep their value (PATCH is a synonym)',
    tag: names.tag,
    status: 200,
    params: idParams,
    body: updateCustomerBody,
    response: customerResponse,
    invalidMessage: 'Could not update customer. Some fields contain invalid data',
    async handle({ ctx, account, params, body }) {
      const [customer] = present(ctx.db, ctx.config, account.id, [await updateCustomer(ctx, account, params.id, body)]);
      return customer;
    },
  }),
];

import { defineRoute } from '../../http/route';
import { listRoute, readOneRoute } from '../../http/resourceRoutes';
import { presentProduct, presentProducts } from './presenter';
import { createProductBody, productResponse } from './schemas';
import { createProduct, getProduct, listProducts } from './service';

const names = { path: '/api/v2/products', tag: 'Products', plural: 'products', item: productResponse };
const present = presentProducts;

export const productRoutes = [
  listRoute({ ...names, operationId: 'listProducts', summary: 'List products', list: listProducts, present }),
  defineRoute({
    methods: ['post'],
    path: names.path,
    operationId: 'createProduct',
    summary: 'Create a product (one-off, subscription or shipping costs)',
    tag: names.tag,
    status: 201,
    body: createProductBody,
    response: productResponse,
    invalidMessage: 'Could not create product. Some fields contain invalid data',
    async handle({ ctx, account, body, idempotency }) {
      return presentProduct(await createProduct(ctx, account, body, idempotency));
    },
  }),
  readOneRoute({ ...names, operationId: 'getProduct', summary: 'Get one product', get: getProduct, present }),
];

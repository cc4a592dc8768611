import { pagedEnvelope, pagedEnvelopeSchema, pageQuerySchema, pageRequestFrom } from '../../http/pagination';
import { defineRoute } from '../../http/route';
import { presentProduct } from './presenter';
import { createProductBody, productIdParams, productResponse } from './schemas';
import { createProduct, getProduct, listProducts } from './service';

const PATH = '/api/v2/products';

export const productRoutes = [
  defineRoute({
    methods: ['get'],
    path: PATH,
    operationId: 'listProducts',
    summary: 'List products',
    tag: 'Products',
    status: 200,
    query: pageQuerySchema,
    response: pagedEnvelopeSchema(productResponse),
    invalidMessage: 'Could not list products. Some parameters are invalid',
    async handle({ ctx, account, query }) {
      const request = pageRequestFrom(query);
      const page = await listProducts(ctx, account, request);
      return pagedEnvelope({ items: page.items.map(presentProduct), total: page.total }, request, ctx.config.publicUrl + PATH);
    },
  }),
  defineRoute({
    methods: ['post'],
    path: PATH,
    operationId: 'createProduct',
    summary: 'Create a product (one-off, subscription or shipping costs)',
    tag: 'Products',
    status: 201,
    body: createProductBody,
    response: productResponse,
    invalidMessage: 'Could not create product. Some fields contain invalid data',
    async handle({ ctx, account, body }) {
      return presentProduct(await createProduct(ctx, account, body));
    },
  }),
  defineRoute({
    methods: ['get'],
    path: `${PATH}/:id`,
    operationId: 'getProduct',
    summary: 'Get one product',
    tag: 'Products',
    status: 200,
    extension: true,
    params: productIdParams,
    response: productResponse,
    invalidMessage: 'Could not get product',
    async handle({ ctx, account, params }) {
      return presentProduct(await getProduct(ctx, account, params.id));
    },
  }),
];

import { defineRoute } from '../../http/route';
import { idParams, listRoute, readOneRoute } from '../../http/resourceRoutes';
import { presentPaymentLinks } from './presenter';
import { createPaymentLinkBody, paymentLinkListQuery, paymentLinkResponse } from './schemas';
import { createPaymentLink, deactivatePaymentLink, getPaymentLink, listPaymentLinks } from './service';

const names = { path: '/api/v2/links', tag: 'Payment links', plural: 'payment links', item: paymentLinkResponse };
const present = presentPaymentLinks;

export const linkRoutes = [
  listRoute({
    ...names,
    operationId: 'listPaymentLinks',
    summary: 'List payment links (extension filter: status)',
    query: paymentLinkListQuery,
    filtersOf: (query) => ({ status: query.status }),
    list: listPaymentLinks,
    present,
  }),
  defineRoute({
    methods: ['post'],
    path: names.path,
    operationId: 'createPaymentLink',
    summary: 'Create a payment link: one payment, a subscription sign-up or a mandate',
    tag: names.tag,
    status: 201,
    extension: true,
    body: createPaymentLinkBody,
    response: paymentLinkResponse,
    invalidMessage: 'Could not create payment link. Some fields contain invalid data',
    async handle({ ctx, account, body, idempotency }) {
      const [item] = await presentPaymentLinks(ctx.db, ctx.config, account.id, [await createPaymentLink(ctx, account, body, idempotency)]);
      if (item === undefined) throw new Error('Presenting a new payment link gave nothing');
      return item;
    },
  }),
  readOneRoute({ ...names, operationId: 'getPaymentLink', summary: 'Get one payment link', get: getPaymentLink, present }),
  defineRoute({
    methods: ['delete'],
    path: `${names.path}/:id`,
    operationId: 'deactivatePaymentLink',
    summary: 'Deactivate a payment link (an open one becomes cancelled)',
    tag: names.tag,
    status: 200,
    extension: true,
    params: idParams,
    response: paymentLinkResponse,
    invalidMessage: 'Could not deactivate payment link. Some parameters are invalid',
    async handle({ ctx, account, params }) {
      const [item] = await presentPaymentLinks(ctx.db, ctx.config, account.id, [await deactivatePaymentLink(ctx, account, params.id)]);
      if (item === undefined) throw new Error(`Presenting payment link ${params.id} gave nothing`);
      return item;
    },
  }),
];

import { defineRoute } from '../../http/route';
import { presentShop } from './presenter';
import { connectShopBody, connectShopSummary, shopOrderParams, shopOrderViewResponse, shopResponse } from './schemas';
import { connectShop, disconnectShop, eventSigningSecret, getShop, getShopOrder, shopPortal } from './service';

const path = '/api/v2/shop';
const tag = 'Shop';

/** The account's store connection (extensions): connect (the plugin uses it), read, disconnect. */
export const shopRoutes = [
  defineRoute({
    methods: ['post'],
    path,
    operationId: 'connectShop',
    summary: connectShopSummary,
    tag,
    status: 200,
    extension: true,
    body: connectShopBody,
    response: shopResponse,
    invalidMessage: 'Could not connect the store',
    async handle({ ctx, account, body }) {
      const shop = presentShop(ctx.config, account, await connectShop(ctx, account, body), await shopPortal(ctx, account));
      // The connecting plugin verifies the payment events it receives with this; GET never shows it.
      return { ...shop, event_signing_secret: await eventSigningSecret(ctx, account) };
    },
  }),
  defineRoute({
    methods: ['get'],
    path,
    operationId: 'getShop',
    summary: 'The store connection and the state of its webhooks',
    tag,
    status: 200,
    extension: true,
    response: shopResponse,
    invalidMessage: 'Could not get the store',
    async handle({ ctx, account }) {
      return presentShop(ctx.config, account, await getShop(ctx, account), await shopPortal(ctx, account));
    },
  }),
  defineRoute({
    methods: ['delete'],
    path,
    operationId: 'disconnectShop',
    summary: 'Disconnect the store: our webhooks removed, its credentials forgotten, synced data kept',
    tag,
    status: 200,
    extension: true,
    response: shopResponse,
    invalidMessage: 'Could not disconnect the store',
    async handle({ ctx, account }) {
      return presentShop(ctx.config, account, await disconnectShop(ctx, account), await shopPortal(ctx, account));
    },
  }),
  defineRoute({
    methods: ['get'],
    path: `${path}/orders/:shopOrderId`,
    operationId: 'getShopOrder',
    summary:
      "A store order as the service sees it (the plugin's order box): its payments, the subscriptions it started and their follow-ups",
    tag,
    status: 200,
    extension: true,
    params: shopOrderParams,
    response: shopOrderViewResponse,
    invalidMessage: 'Could not get the store order',
    async handle({ ctx, account, params }) {
      return getShopOrder(ctx, account, params.shopOrderId);
    },
  }),
];

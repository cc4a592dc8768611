import { defineRoute } from '../../http/route';
import { webhookSecretOf } from '../../webhooks/outbound/secret';
import { presentShop } from './presenter';
import { connectShopBody, shopResponse } from './schemas';
import { connectShop, disconnectShop, getShop } from './service';

const path = '/api/v2/shop';
const tag = 'Shop';

/** The account's store connection (extensions): connect (the plugin uses it), read, disconnect. */
export const shopRoutes = [
  defineRoute({
    methods: ['post'],
    path,
    operationId: 'connectShop',
    summary: 'Connect the WooCommerce store: keys verified with one REST call, webhooks registered',
    tag,
    status: 200,
    extension: true,
    body: connectShopBody,
    response: shopResponse,
    invalidMessage: 'Could not connect the store',
    async handle({ ctx, account, body }) {
      const shop = presentShop(ctx.config, account, await connectShop(ctx, account, body));
      // The connecting plugin verifies the payment events it receives with this; GET never shows it.
      return { ...shop, event_signing_secret: await webhookSecretOf(ctx, account.id) };
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
      return presentShop(ctx.config, account, await getShop(ctx, account));
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
      return presentShop(ctx.config, account, await disconnectShop(ctx, account));
    },
  }),
];

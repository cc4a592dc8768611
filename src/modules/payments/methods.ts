import { z } from 'zod';
import { defineRoute } from '../../http/route';
import { PAYMENT_METHODS } from './schemas';

const methodsResponse = z.object({
  data: z.array(z.object({ id: z.enum(PAYMENT_METHODS) })).describe("the spec's methods the account's provider offers, in the spec's order"),
});

/**
 * `GET /api/v2/methods` (extension): what a checkout may offer. The plugin shows these, so a buyer is
 * never offered a method the provider would refuse.
 */
export const methodRoutes = [
  defineRoute({
    methods: ['get'],
    path: '/api/v2/methods',
    operationId: 'listMethods',
    summary: "The payment methods of the spec's enum that the account's provider has enabled",
    tag: 'Payments',
    status: 200,
    extension: true,
    response: methodsResponse,
    invalidMessage: 'Could not list payment methods',
    async handle({ ctx, account }) {
      const enabled = new Set(await (await ctx.providers.forAccount(account)).listMethods());
      return { data: PAYMENT_METHODS.filter((method) => enabled.has(method)).map((id) => ({ id })) };
    },
  }),
];

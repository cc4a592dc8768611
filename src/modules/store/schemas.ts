import { PORTAL_ACTIONS } from '../accounts/portalSettings';
import { z } from 'zod';
import { requiredText } from '../../validation/fields';
import { DEFAULT_SHOP_PLATFORM, DEFAULT_SHOP_PLATFORM_DISPLAY_NAME } from '../../integrations';

/** `POST /api/v2/shop`'s summary in the API's reference (the route names no platform). */
export const connectShopSummary =
  `Connect the ${DEFAULT_SHOP_PLATFORM_DISPLAY_NAME} store: ` + 'keys verified with one REST call, webhooks registered';

/** `POST /api/v2/shop` (extension; the plugin's "Connect this store" sends it). */
export const connectShopBody = z
  .object({
    url: z.url({ protocol: /^https?$/, error: 'The url field must be the http(s) address of the store.' }).max(2048),
    consumer_key: requiredText(191).refine((key) => key.startsWith('ck_'), 'The consumer key field must start with ck_.'),
    consumer_secret: requiredText(191).refine((secret) => secret.startsWith('cs_'), 'The consumer secret field must start with cs_.'),
    callback_url: z
      .url({ protocol: /^https?$/ })
      .max(2048)
      .optional()
      .describe("the plugin's signed callback for subscription events (cancelled, paused, resumed, skipped, method changed)"),
  })
  .strict();

export const shopResponse = z.object({
  platform: z.literal(DEFAULT_SHOP_PLATFORM),
  url: z.string(),
  status: z.enum(['connected', 'disconnected']),
  consumer_key: z.string().describe('masked: ck_… and the last four characters'),
  webhooks: z.object({
    state: z
      .enum(['pending', 'registered', 'not_reachable', 'failed'])
      .describe(
        "registered: the store's ping reached delivery_url; not_reachable: it did not (reason says why), no webhooks are kept " +
          'in the store and the periodic sync keeps data current; failed: the store refused to register them (error); ' +
          'pending: being connected',
      ),
    delivery_url: z.string(),
    error: z.string().nullable().describe('why registering failed (state failed)'),
    reason: z
      .string()
      .nullable()
      .describe(
        'why the store cannot deliver to delivery_url (state not_reachable): a port WordPress refuses, a private address, or no ping',
      ),
    last_ping_at: z.string().nullable().describe("when the store's ping last reached the service; Y-m-d H:i:s in APP_TIMEZONE"),
    in_store: z
      .array(
        z.object({
          topic: z.string(),
          id: z.number().int().nullable(),
          status: z
            .enum(['active', 'paused', 'disabled', 'missing'])
            .describe('as the store reports it; the store disables a webhook after more than 5 failed deliveries in a row'),
        }),
      )
      .describe('our webhooks as the store reported them at last_checked_at; the sync job sets disabled or missing ones active again'),
    last_checked_at: z.string().nullable().describe('when the store was last asked; Y-m-d H:i:s in APP_TIMEZONE'),
  }),
  connected_at: z.string().nullable().describe('Y-m-d H:i:s in APP_TIMEZONE'),
  portal: z
    .object({
      allowed_actions: z.array(z.enum(PORTAL_ACTIONS)).describe('what a customer may do to a subscription themselves, in this order'),
      max_pause_days: z.number().int().describe('how far ahead a pause may end'),
    })
    .describe("the account's self-service settings, so the store offers only the allowed actions"),
  event_signing_secret: z
    .string()
    .optional()
    .describe('only in the answer to POST: the secret that signs payment events (X-Signature), so the plugin can verify its callbacks'),
});
export type ShopResponse = z.input<typeof shopResponse>;

/** `GET /api/v2/shop/orders/{shopOrderId}` (extension): one store order as the service sees it. */
export const shopOrderViewResponse = z.object({
  shop_order_id: z.number().int(),
  order_id: z.string(),
  order_status: z.string(),
  payments: z.array(
    z.object({
      id: z.string(),
      provider_payment_id: z.string().nullable(),
      status: z.string(),
      amount: z.string(),
      currency: z.string(),
      method: z.string().nullable(),
      created_at: z.string(),
      paid_at: z.string().nullable(),
      provider_checkout_url: z.string().nullable().describe('only while the payment can still be paid'),
    }),
  ),
  subscriptions: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      status: z.string(),
      next_payment_at: z.string().nullable(),
      cancel_at: z.string().nullable().describe('the day it ends when cancelled at the end of a period (Y-m-d)'),
    }),
  ),
  follow_ups: z.array(
    z.object({
      id: z.string(),
      subscription_id: z.string().nullable(),
      type: z.string(),
      status: z.string(),
      retries_done: z.number().int(),
    }),
  ),
});
export type ShopOrderView = z.input<typeof shopOrderViewResponse>;

export const shopOrderParams = z.object({ shopOrderId: z.string() });

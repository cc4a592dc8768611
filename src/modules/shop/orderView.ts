import type { Knex } from 'knex';
import { z } from 'zod';
import { NotFoundError } from '../../http/errors';
import { defineRoute } from '../../http/route';
import { formatCents } from '../../money';
import { formatDateTime, formatNullableDate, formatNullableDateTime } from '../../time';
import type { FollowUpRow } from '../follow-ups/repository';
import type { OrderRow } from '../orders/repository';
import type { PaymentRow } from '../payments/repository';
import type { SubscriptionRow } from '../subscriptions/repository';

const paramsSchema = z.object({ shopOrderId: z.string() });

const orderViewResponse = z.object({
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
  subscriptions: z.array(z.object({ id: z.string(), name: z.string(), status: z.string(), next_payment_at: z.string().nullable() })),
  follow_ups: z.array(z.object({ id: z.string(), subscription_id: z.string().nullable(), type: z.string(), status: z.string(), retries_done: z.number().int() })),
});
type OrderView = z.input<typeof orderViewResponse>;

/** Most recent first; a store order has a handful of payments, a subscription a few follow-ups. */
const LIMIT = 20;

/**
 * What the service knows of one store order, for the box on the plugin's order screen: its
 * payments (with the checkout address while one is payable), the subscriptions it started and their
 * follow-ups. Five indexed reads, whatever the order holds.
 */
async function orderView(db: Knex, accountId: string, shopOrderId: number, timezone: string): Promise<OrderView> {
  const order = await db<OrderRow>('orders').where({ account_id: accountId, shop_order_id: shopOrderId }).first('id', 'status');
  if (!order) throw new NotFoundError('Order');
  const [payments, subscriptions] = await Promise.all([
    db<PaymentRow>('payments').where({ account_id: accountId, purpose: 'order', purpose_id: order.id }).orderBy('created_at', 'desc').limit(LIMIT),
    db<SubscriptionRow>('subscriptions').where({ account_id: accountId, origin_order_id: order.id }).orderBy('created_at', 'asc').limit(LIMIT),
  ]);
  const subscriptionIds = subscriptions.map((row) => row.id);
  const followUps: FollowUpRow[] = subscriptionIds.length
    ? await db<FollowUpRow>('follow_ups').where({ account_id: accountId }).whereIn('subscription_id', subscriptionIds).orderBy('created_at', 'desc').limit(LIMIT)
    : [];
  return {
    shop_order_id: shopOrderId,
    order_id: order.id,
    order_status: order.status,
    payments: payments.map((row) => ({
      id: row.id,
      provider_payment_id: row.provider_payment_id,
      status: row.status,
      amount: formatCents(Number(row.amount)),
      currency: row.currency,
      method: row.method,
      created_at: formatDateTime(row.created_at, timezone),
      paid_at: formatNullableDateTime(row.paid_at, timezone),
      provider_checkout_url: row.status === 'open' ? row.checkout_url : null,
    })),
    subscriptions: subscriptions.map((row) => ({
      id: row.id,
      name: row.name,
      status: row.status,
      next_payment_at: formatNullableDate(row.next_payment_at),
    })),
    follow_ups: followUps.map((row) => ({ id: row.id, subscription_id: row.subscription_id, type: row.type, status: row.status, retries_done: Number(row.retries_done) })),
  };
}

/** `GET /api/v2/shop/orders/{shopOrderId}` (extension): the plugin's order-screen box. */
export const shopOrderRoutes = [
  defineRoute({
    methods: ['get'],
    path: '/api/v2/shop/orders/:shopOrderId',
    operationId: 'getShopOrder',
    summary: "A store order as the service sees it: its payments, the subscriptions it started and their follow-ups",
    tag: 'Shop',
    status: 200,
    extension: true,
    params: paramsSchema,
    response: orderViewResponse,
    invalidMessage: 'Could not get the store order',
    async handle({ ctx, account, params }) {
      const id = /^[1-9][0-9]{0,15}$/.test(params.shopOrderId) ? Number(params.shopOrderId) : null;
      if (id === null) throw new NotFoundError('Order');
      return orderView(ctx.db, account.id, id, ctx.config.APP_TIMEZONE);
    },
  }),
];

import type { Knex } from 'knex';
import { tenantTable } from '../../db/tenantTable';

export const ORDER_STATUSES = ['unpaid', 'pending', 'paid', 'completed', 'charged_back', 'cancelled'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

export interface OrderRow {
  id: string;
  account_id: string;
  status: OrderStatus;
  total_amount: number; // cents
  currency: string;
  order_number: string;
  first_name: string | null;
  last_name: string | null;
  email: string | null;
  organization_name: string | null;
  phone: string | null;
  address: string | null;
  postal_code: string | null;
  city: string | null;
  country: string | null;
  vat_number: string | null;
  carrier: string | null;
  tracktrace: string | null;
  shop_order_id: number | null;
  shop_order_number: string | null;
  subscription_id: string | null;
  subscription_status: string | null;
  cancel_subscription_at: string | null; // Y-m-d
  /** `renewal-<charge id>` for the order a subscription's charge made; null for store and API orders. */
  origin_key: string | null;
  /** The store order a renewal order renews. */
  parent_order_id: string | null;
  /** For a store order: when the store last changed the record this row was written from (GMT); null when not known. */
  shop_modified_at?: string | null;
  /** The gateway of a store order, as the store names it; a renewal order carries its first order's. */
  payment_method?: string | null;
  payment_method_title?: string | null;
  /** JSON of the store order's shipping lines (StoreShippingLine[]); they recur on renewals of what is shipped. */
  shipping_lines?: string | null;
  /** JSON of what the store invoiced (StoreInvoiceLine[]), for an invoice of the order; null when it did not say. */
  invoice_lines?: string | null;
  /** Why a paid store order started no subscription (its amount could not be derived); the store is told on the order. */
  subscription_refusal?: string | null;
  created_at: string;
  updated_at: string;
}

export interface OrderLineRow {
  id: string;
  account_id: string;
  order_id: string;
  product_id: string;
  position: number;
  quantity: number;
  next_order: string | null; // Y-m-d
  /** The subscription this line became when its order was paid. */
  subscription_id: string | null;
  /** A store line's price with tax before one-time coupons, in cents, for the whole line; null when the store did not say. */
  amount?: number | null;
  /** A store line's subtotal without tax, as the store's decimal text. */
  shop_subtotal?: string | null;
  /** The store's subscriptions extension's subscription holding the line (migration 044); null or absent: none. */
  shop_subscription_id?: number | string | null;
  /** A store line's VAT percentage, from the order's tax lines (migration 053); null: none or not named. */
  vat_rate?: string | null;
}

const shared = tenantTable<OrderRow>('orders');

export const ordersRepository = {
  ...shared,

  findByShopOrderId: (db: Knex, accountId: string, shopOrderId: number) =>
    shared.table(db).where({ account_id: accountId, shop_order_id: shopOrderId }).first(),

  /** Of these store orders, the first orders (not renewals) that are cancelled here, in one query. */
  cancelledFirstOrders: (db: Knex, accountId: string, shopOrderIds: readonly number[]): Promise<OrderRow[]> =>
    shopOrderIds.length
      ? shared
          .table(db)
          .where({ account_id: accountId, status: 'cancelled' })
          .whereNull('parent_order_id')
          .whereIn('shop_order_id', [...shopOrderIds])
      : Promise.resolve([]),

  findByOriginKey: (db: Knex, accountId: string, originKey: string) =>
    shared.table(db).where({ account_id: accountId, origin_key: originKey }).first(),

  insert: (db: Knex, row: OrderRow) => shared.table(db).insert(row),

  update: (db: Knex, accountId: string, id: string, changes: Partial<OrderRow>) =>
    shared.table(db).where({ account_id: accountId, id }).update(changes),

  /** An order deleted in the store can no longer be paid or shipped: ours is cancelled, not removed. */
  cancelByShopOrderId: (db: Knex, accountId: string, shopOrderId: number, now: string) =>
    shared.table(db).where({ account_id: accountId, shop_order_id: shopOrderId }).update({ status: 'cancelled', updated_at: now }),

  /** The account's paid store orders after `afterSeq`, in their order of creation: a batch of a walk through them all. */
  paidStoreOrdersAfter: async (db: Knex, accountId: string, afterSeq: number, limit: number): Promise<Array<OrderRow & { seq: number }>> =>
    (await shared
      .table(db)
      .where({ account_id: accountId, status: 'paid' })
      .whereNotNull('shop_order_id')
      .andWhere('seq', '>', afterSeq)
      .orderBy('seq')
      .limit(limit)) as Array<OrderRow & { seq: number }>,

  insertLines: async (db: Knex, lines: OrderLineRow[]): Promise<void> => {
    if (lines.length) await db<OrderLineRow>('order_lines').insert(lines);
  },

  /** The order's lines that became a subscription when the order was paid. */
  attachLinesToSubscription: (
    db: Knex,
    accountId: string,
    orderId: string,
    lineIds: string[],
    subscription: { id: string; nextOrder: string | null },
  ) =>
    db<OrderLineRow>('order_lines')
      .where({ account_id: accountId, order_id: orderId })
      .whereIn('id', lineIds)
      .update({ subscription_id: subscription.id, next_order: subscription.nextOrder }),

  /** Lines of several orders in one query, in their order on the order. */
  linesOf: async (db: Knex, accountId: string, orderIds: string[]): Promise<OrderLineRow[]> =>
    orderIds.length
      ? db<OrderLineRow>('order_lines')
          .where('account_id', accountId)
          .whereIn('order_id', orderIds)
          .orderBy([{ column: 'order_id' }, { column: 'position' }])
      : [],
};

import type { Knex } from 'knex';
import { tenantTable } from '../../db/tenantTable';
import type { IntervalUnit } from '../../time/calendar';

export const PRODUCT_TYPES = ['once', 'subscription', 'shipping_costs'] as const;
export type ProductType = (typeof PRODUCT_TYPES)[number];

export interface ProductRow {
  id: string;
  account_id: string;
  type: ProductType;
  name: string;
  amount: number; // cents
  currency: string;
  vat_basis_points: number; // 21% = 2100
  interval: IntervalUnit | null;
  interval_value: number | null;
  times: number | null; // null: unlimited
  shop_product_id: number | null;
  /** Deleted in the store: kept (orders and links refer to it), marked. */
  deleted_at: string | null;
  /** When the store last changed the record this row was written from (GMT); null when not known. */
  shop_modified_at?: string | null;
  /** A variation's: the store id of its variable product (null for any other product). */
  shop_parent_product_id?: number | null;
  /** A store product's: 1 when it is shipped, 0 when virtual; null when not known (taken as shipped). */
  shipped?: number | null;
  /** A store product's free trial in days before its first charge (migration 042); null or 0: none. */
  trial_days?: number | null;
  /** A store product's sign-up fee in cents, charged once at the checkout (migration 042); null or 0: none. */
  signup_fee?: number | null;
  created_at: string;
  updated_at: string;
}

const shared = tenantTable<ProductRow>('products');

export const productsRepository = {
  ...shared,

  insert: (db: Knex, row: ProductRow) => shared.table(db).insert(row),

  /** Our product ids of the store's products synced here, by store product id. */
  idsOfShopProducts: async (db: Knex, accountId: string, shopProductIds: number[]): Promise<Map<number, string>> => {
    if (!shopProductIds.length) return new Map();
    const rows = await shared
      .table(db)
      .where('account_id', accountId)
      .whereIn('shop_product_id', shopProductIds)
      .select('id', 'shop_product_id');
    return new Map(rows.map((row) => [Number(row.shop_product_id), row.id]));
  },

  /**
   * A product deleted in the store: kept (orders and links refer to it), marked with the day it was
   * first seen deleted. A variable product's variations go with it.
   */
  markDeletedInStore: (db: Knex, accountId: string, shopProductId: number, now: string) =>
    shared
      .table(db)
      .where('account_id', accountId)
      .where((which) => which.where('shop_product_id', shopProductId).orWhere('shop_parent_product_id', shopProductId))
      .whereNull('deleted_at')
      .update({ deleted_at: now, updated_at: now }),
};

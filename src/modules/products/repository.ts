import type { Knex } from 'knex';
import { pageOf } from '../../db/paging';
import type { Page, PageRequest } from '../../http/pagination';
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
  created_at: string;
  updated_at: string;
}

const table = (db: Knex) => db<ProductRow>('products');

export const productsRepository = {
  insert: (db: Knex, row: ProductRow) => table(db).insert(row),

  find: (db: Knex, accountId: string, id: string) => table(db).where({ account_id: accountId, id }).first(),

  /** Products by id, for order lines (one query for a whole page). */
  findMany: async (db: Knex, accountId: string, ids: string[]): Promise<Map<string, ProductRow>> => {
    if (!ids.length) return new Map();
    const rows = await table(db).where('account_id', accountId).whereIn('id', [...new Set(ids)]);
    return new Map(rows.map((row) => [row.id, row]));
  },

  page: (db: Knex, accountId: string, request: PageRequest): Promise<Page<ProductRow>> =>
    pageOf<ProductRow>(table(db).where('account_id', accountId), request),
};

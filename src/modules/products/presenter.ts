import { formatCents } from '../../money';
import type { ProductRow } from './repository';
import type { ProductResponse } from './schemas';

/** Product as the API shows it (docs/api.md, Product); also used in order lines. */
export function presentProduct(row: ProductRow): ProductResponse {
  return {
    id: row.id,
    name: row.name,
    type: row.type,
    amount: formatCents(row.amount),
    currency: row.currency,
    interval: row.interval,
    times: row.times,
    shop_product_id: row.shop_product_id,
  };
}

/** The batched form the route factories take; products nest nothing, so no queries. */
export function presentProducts(_db: unknown, _config: unknown, _accountId: string, rows: ProductRow[]): ProductResponse[] {
  return rows.map(presentProduct);
}

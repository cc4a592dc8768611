import { formatCents } from '../../money';
import type { ProductRow } from './repository';
import type { ProductResponse } from './schemas';

/** Product as the API shows it (spec 2.6); also used in order lines. */
export function presentProduct(row: ProductRow): ProductResponse {
  return {
    id: row.id,
    name: row.name,
    type: row.type,
    amount: formatCents(Number(row.amount)),
    currency: row.currency,
    interval: row.interval,
    times: row.times,
    shop_product_id: row.shop_product_id === null ? null : Number(row.shop_product_id),
  };
}

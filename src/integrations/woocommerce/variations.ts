import { ShopApiError } from '../errors';
import type { StoreProduct } from '../records';
import type { RejectedRecord, WooClient } from './client';
import { isVariable, mapProduct, mapVariableProduct, mapVariation } from './productMapping';
import { wooProduct, type WooProduct } from './schemas';
import { errorMessage } from '../../errors';

/** What one store product comes to here: itself, or for a variable one its variations (and what is kept of it). */
export interface ProductsOfRecord {
  records: StoreProduct[];
  rejected: RejectedRecord[];
}

/**
 * A store product as products here. A variable product is sold as its variations: they are read
 * from `/products/{id}/variations` (every page, within the client's budget) and each becomes a
 * product of its own; the variable product itself only says which variations it has. One whose
 * variations cannot be read is rejected whole, so none of its variations is taken for deleted.
 * A deleted (trashed) variable product takes its variations with it: they are not read.
 */
export async function productsOf(client: WooClient, product: WooProduct): Promise<ProductsOfRecord> {
  if (!isVariable(product)) {
    try {
      return { records: [mapProduct(product)], rejected: [] };
    } catch (error) {
      return { records: [], rejected: [{ id: product.id, error: errorMessage(error) }] };
    }
  }
  const parent = mapVariableProduct(product);
  if (parent.deleted) return { records: [parent], rejected: [] };
  const records: StoreProduct[] = [];
  const rejected: RejectedRecord[] = [];
  const ids: number[] = [];
  try {
    await client.listAll(`products/${product.id}/variations`, wooProduct, { status: 'any' }, async (page) => {
      rejected.push(...page.rejected.map((record) => ({ id: record.id, error: `variation of ${product.id}: ${record.error}` })));
      for (const variation of page.items) {
        ids.push(variation.id);
        try {
          records.push(mapVariation(variation, product));
        } catch (error) {
          rejected.push({ id: variation.id, error: `variation of ${product.id}: ${errorMessage(error)}` });
        }
      }
    });
  } catch (error) {
    if (!(error instanceof ShopApiError)) throw error;
    return { records: [], rejected: [{ id: product.id, error: `its variations could not be read: ${error.message}` }] };
  }
  // A variation the store answered in a shape we cannot use still exists: it is not taken for deleted.
  const unreadable = rejected.flatMap((record) => (typeof record.id === 'number' ? [record.id] : []));
  return { records: [{ ...parent, variationIds: [...ids, ...unreadable] }, ...records], rejected };
}

/** Several store products as products here, in their order (each variable one costs its variation pages; the budget bounds them). */
export async function productsOfAll(client: WooClient, products: readonly WooProduct[]): Promise<ProductsOfRecord> {
  const each = await Promise.all(products.map((product) => productsOf(client, product)));
  return { records: each.flatMap((one) => one.records), rejected: each.flatMap((one) => one.rejected) };
}

import type { AppContext } from '../../context';
import type { WooClient } from '../../shop/woocommerce/client';
import { mapProduct, type MappedProduct } from '../../shop/woocommerce/productMapping';
import { wooProduct } from '../../shop/woocommerce/schemas';
import { toDbDateTime } from '../../time';
import { shopsRepository, type ShopRow } from '../shop/repository';
import { upsertStoreProducts } from './productUpsert';
import { syncRunsRepository, type SyncError, type SyncRunRow } from './repository';

/** Changes a store makes around a sync's cursor can be committed late: read again this far back. */
export const CURSOR_OVERLAP_MS = 5 * 60 * 1000;

/** The cursor minus the overlap, as wc/v3 takes it (`Y-m-dTH:i:s`, GMT with dates_are_gmt). */
export function modifiedAfter(cursor: string): string {
  return new Date(Date.parse(`${cursor}Z`) - CURSOR_OVERLAP_MS).toISOString().slice(0, 19);
}

/**
 * Reads the store's products (all of them when `full` or never synced; else those modified since the
 * cursor, minus an overlap) and upserts them page by page; a product that cannot be mapped fails
 * alone, named. The cursor moves to the newest modification seen once the whole run succeeded.
 */
export async function syncProducts(ctx: AppContext, run: SyncRunRow, shop: ShopRow, client: WooClient): Promise<void> {
  const incremental = !run.full && shop.products_cursor !== null;
  const params: Record<string, string> = { orderby: 'modified', order: 'asc', dates_are_gmt: 'true', status: 'any' };
  if (incremental && shop.products_cursor) params.modified_after = modifiedAfter(shop.products_cursor);
  let newest = shop.products_cursor;
  await client.listAll('products', wooProduct, params, async (page) => {
    const mapped: MappedProduct[] = [];
    const errors: SyncError[] = page.rejected.map((record) => ({ record: `product ${String(record.id)}`, error: record.error }));
    for (const product of page.items) {
      try {
        mapped.push(mapProduct(product));
      } catch (error) {
        errors.push({ record: `product ${product.id}`, error: error instanceof Error ? error.message : String(error) });
      }
      const modified = product.date_modified_gmt ?? null;
      if (modified && (newest === null || modified > newest)) newest = modified.slice(0, 19);
    }
    const now = toDbDateTime(ctx.clock.now());
    const counts = await upsertStoreProducts(ctx.db, run.account_id, mapped, now);
    await syncRunsRepository.recordPage(ctx.db, run.id, { ...counts, failed: errors.length, errors, pagesTotal: page.totalPages, now });
  });
  if (newest !== shop.products_cursor) await shopsRepository.update(ctx.db, run.account_id, { products_cursor: newest });
}

import type { AppContext } from '../../context';
import type { ChangedPage, StoreClient } from '../../integrations/platform';
import { toDbDateTime } from '../../time';
import type { UpsertCounts } from '../../db/upserts';
import { upsertStoreOrders } from '../orders/storeOrdersRepository';
import { upsertStoreProducts } from '../products/storeProductsRepository';
import { cancelSubscriptionsOfEndedOrders } from './endedOrders';
import { shopsRepository, type ShopRow } from './repository';
import { syncRunsRepository, type SyncError, type SyncRunRow } from './syncRunsRepository';

type Upsert<Record> = (records: Record[], now: string) => Promise<UpsertCounts & { errors?: SyncError[] }>;

/**
 * Reads the store's products or orders — all of them when `full` or never synced, else those changed
 * since the cursor — and upserts them page by page; a record that cannot be used fails alone, named.
 * The cursor moves to the newest modification seen once the whole run succeeded.
 */
export async function syncStore(ctx: AppContext, run: SyncRunRow, shop: ShopRow, store: StoreClient): Promise<void> {
  const cursorColumn = run.kind === 'products' ? 'products_cursor' : 'orders_cursor';
  const label = run.kind === 'products' ? 'product' : 'order';
  const cursor = shop[cursorColumn];
  let newest = cursor;
  const recordPage = async <Record>(page: ChangedPage<Record>, upsert: Upsert<Record>) => {
    if (page.newest && (newest === null || page.newest > newest)) newest = page.newest;
    const errors: SyncError[] = page.rejected.map((record) => ({ record: `${label} ${String(record.id)}`, error: record.error }));
    const now = toDbDateTime(ctx.clock.now());
    const counts = await upsert(page.records, now);
    const failed = errors.length;
    errors.push(...(counts.errors ?? []));
    await syncRunsRepository.recordPage(ctx.db, run.id, {
      created: counts.created,
      updated: counts.updated,
      unchanged: counts.unchanged,
      failed,
      errors,
      pagesTotal: page.totalPages,
      now,
    });
  };
  const since = run.full ? null : cursor;
  if (run.kind === 'products') {
    await store.listChanged('products', since, (page) =>
      recordPage(page, (records, now) => upsertStoreProducts(ctx.db, run.account_id, records, now)),
    );
  } else {
    await store.listChanged('orders', since, (page) =>
      recordPage(page, async (records, now) => {
        const counts = await upsertStoreOrders(ctx.db, run.account_id, records, now);
        // First orders cancelled, refunded or trashed in the store end the subscriptions they started.
        const ended = records.filter((order) => order.status === 'cancelled').map((order) => order.shopOrderId);
        await cancelSubscriptionsOfEndedOrders(ctx, run.account_id, ended);
        return counts;
      }),
    );
  }
  if (newest !== cursor) await shopsRepository.update(ctx.db, run.account_id, { [cursorColumn]: newest });
}

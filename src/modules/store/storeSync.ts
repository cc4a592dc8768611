import type { z } from 'zod';
import type { AppContext } from '../../context';
import type { WooClient } from '../../integrations/woocommerce/client';
import { mapOrder } from '../../integrations/woocommerce/orderMapping';
import { mapProduct } from '../../integrations/woocommerce/productMapping';
import { wooOrder, wooProduct } from '../../integrations/woocommerce/schemas';
import { toDbDateTime } from '../../time';
import { shopsRepository, type ShopRow } from './repository';
import { upsertStoreOrders } from './orderUpsert';
import { upsertStoreProducts, type UpsertCounts } from './productUpsert';
import { syncRunsRepository, type SyncError, type SyncKind, type SyncRunRow } from './syncRunsRepository';

/** Changes a store makes around a sync's cursor can be committed late: read again this far back. */
export const CURSOR_OVERLAP_MS = 5 * 60 * 1000;

/** The cursor minus the overlap, as wc/v3 takes it (`Y-m-dTH:i:s`, GMT with dates_are_gmt). */
export function modifiedAfter(cursor: string): string {
  return new Date(Date.parse(`${cursor}Z`) - CURSOR_OVERLAP_MS).toISOString().slice(0, 19);
}

/** What differs between syncing products and orders; the rest is one procedure. */
interface Kind<Record, Mapped> {
  endpoint: string;
  schema: z.ZodType<Record>;
  label: string;
  cursor: 'products_cursor' | 'orders_cursor';
  idOf(record: Record): number;
  modifiedOf(record: Record): string | null | undefined;
  map(record: Record): Mapped;
  upsert(ctx: AppContext, accountId: string, mapped: Mapped[], now: string): Promise<UpsertCounts & { errors?: SyncError[] }>;
}

const KINDS = {
  products: {
    endpoint: 'products',
    schema: wooProduct,
    label: 'product',
    cursor: 'products_cursor',
    idOf: (record) => record.id,
    modifiedOf: (record) => record.date_modified_gmt,
    map: mapProduct,
    upsert: (ctx, accountId, mapped, now) => upsertStoreProducts(ctx.db, accountId, mapped, now),
  } satisfies Kind<z.infer<typeof wooProduct>, ReturnType<typeof mapProduct>>,
  orders: {
    endpoint: 'orders',
    schema: wooOrder,
    label: 'order',
    cursor: 'orders_cursor',
    idOf: (record) => record.id,
    modifiedOf: (record) => record.date_modified_gmt,
    map: mapOrder,
    upsert: (ctx, accountId, mapped, now) => upsertStoreOrders(ctx.db, accountId, mapped, now),
  } satisfies Kind<z.infer<typeof wooOrder>, ReturnType<typeof mapOrder>>,
};

async function syncWith<Record, Mapped>(ctx: AppContext, run: SyncRunRow, shop: ShopRow, client: WooClient, kind: Kind<Record, Mapped>): Promise<void> {
  const cursor = shop[kind.cursor];
  const params: { [key: string]: string } = { orderby: 'modified', order: 'asc', dates_are_gmt: 'true' };
  if (kind.endpoint === 'products') params.status = 'any';
  if (!run.full && cursor) params.modified_after = modifiedAfter(cursor);
  let newest = cursor;
  await client.listAll(kind.endpoint, kind.schema, params, async (page) => {
    const mapped: Mapped[] = [];
    const errors: SyncError[] = page.rejected.map((record) => ({ record: `${kind.label} ${String(record.id)}`, error: record.error }));
    for (const record of page.items) {
      try {
        mapped.push(kind.map(record));
      } catch (error) {
        errors.push({ record: `${kind.label} ${kind.idOf(record)}`, error: error instanceof Error ? error.message : String(error) });
      }
      const modified = kind.modifiedOf(record)?.slice(0, 19) ?? null;
      if (modified && (newest === null || modified > newest)) newest = modified;
    }
    const now = toDbDateTime(ctx.clock.now());
    const counts = await kind.upsert(ctx, run.account_id, mapped, now);
    const failed = errors.length;
    errors.push(...(counts.errors ?? []));
    await syncRunsRepository.recordPage(ctx.db, run.id, { created: counts.created, updated: counts.updated, unchanged: counts.unchanged, failed, errors, pagesTotal: page.totalPages, now });
  });
  if (newest !== cursor) await shopsRepository.update(ctx.db, run.account_id, { [kind.cursor]: newest });
}

/**
 * Reads the store's products or orders — all of them when `full` or never synced, else those modified
 * since the cursor minus an overlap — and upserts them page by page; a record that cannot be used
 * fails alone, named. The cursor moves to the newest modification seen once the whole run succeeded.
 */
export function syncStore(ctx: AppContext, run: SyncRunRow, shop: ShopRow, client: WooClient, kind: SyncKind): Promise<void> {
  return kind === 'products' ? syncWith(ctx, run, shop, client, KINDS.products) : syncWith(ctx, run, shop, client, KINDS.orders);
}

import type { z } from 'zod';
import type { ChangedPage } from '../platform';
import type { StoreOrder, StoreProduct, StoreRecordKind, StoreRecords } from '../records';
import type { WooClient } from './client';
import { mapOrder, SYNCED_ORDER_STATUSES } from './orderMapping';
import { wooOrder, wooProduct, type WooOrder, type WooProduct } from './schemas';
import { productsOfAll } from './variations';
import { errorMessage } from '../../errors';
import { dateFromIso, msBefore } from '../../time';

/** Changes a store makes around a sync's cursor can be committed late: read again this far back. */
export const CURSOR_OVERLAP_MS = 5 * 60 * 1000;

/** The cursor minus the overlap, as wc/v3 takes it (`Y-m-dTH:i:s`, GMT with dates_are_gmt). */
export function modifiedAfter(cursor: string): string {
  return msBefore(dateFromIso(`${cursor}Z`), CURSOR_OVERLAP_MS)
    .toISOString()
    .slice(0, 19);
}

/** What differs between listing products and orders; the rest is one procedure. */
interface Listing<Record, Mapped> {
  endpoint: string;
  schema: z.ZodType<Record>;
  /** Products in every status: one trashed in the store is marked deleted here. */
  params: { [key: string]: string };
  modifiedOf(record: Record): string | null | undefined;
  /** A page's records as ours; one that cannot be used is rejected with its id. */
  map(client: WooClient, records: Record[]): Promise<{ records: Mapped[]; rejected: ChangedPage<Mapped>['rejected'] }>;
}

const PRODUCTS: Listing<WooProduct, StoreProduct> = {
  endpoint: 'products',
  schema: wooProduct,
  params: { status: 'any' },
  modifiedOf: (record) => record.date_modified_gmt,
  // A variable product's variations are read with it: saving a variation changes its product's date_modified_gmt.
  map: productsOfAll,
};

const ORDERS: Listing<WooOrder, StoreOrder> = {
  endpoint: 'orders',
  schema: wooOrder,
  params: { status: SYNCED_ORDER_STATUSES },
  modifiedOf: (record) => record.date_modified_gmt,
  map: async (_client, records) => {
    const mapped: StoreOrder[] = [];
    const rejected: ChangedPage<StoreOrder>['rejected'] = [];
    for (const record of records) {
      try {
        mapped.push(mapOrder(record));
      } catch (error) {
        rejected.push({ id: record.id, error: errorMessage(error) });
      }
    }
    return { records: mapped, rejected };
  },
};

async function listWith<Record, Mapped>(
  client: WooClient,
  listing: Listing<Record, Mapped>,
  since: string | null,
  onPage: (page: ChangedPage<Mapped>) => Promise<void>,
): Promise<void> {
  const params: { [key: string]: string } = { orderby: 'modified', order: 'asc', dates_are_gmt: 'true', ...listing.params };
  if (since) params.modified_after = modifiedAfter(since);
  await client.listAll(listing.endpoint, listing.schema, params, async (page) => {
    const mapped = await listing.map(client, page.items);
    const rejected = [...page.rejected, ...mapped.rejected];
    let newest: string | null = null;
    for (const record of page.items) {
      const modified = listing.modifiedOf(record)?.slice(0, 19) ?? null;
      if (modified && (newest === null || modified > newest)) newest = modified;
    }
    await onPage({ totalPages: page.totalPages, records: mapped.records, rejected, newest });
  });
}

/** Products or orders modified since the cursor minus an overlap (all of them without one), oldest first. */
export function listChanged<K extends StoreRecordKind>(
  client: WooClient,
  kind: K,
  since: string | null,
  onPage: (page: ChangedPage<StoreRecords[K]>) => Promise<void>,
): Promise<void> {
  // The listing's records are StoreRecords[kind] by construction; TypeScript cannot tie the two.
  const listing = (kind === 'products' ? PRODUCTS : ORDERS) as unknown as Listing<unknown, StoreRecords[K]>;
  return listWith(client, listing, since, onPage);
}

import { z } from 'zod';
import { ShopApiError } from '../errors';
import type { Tracking } from '../records';
import type { WooClient } from './client';
import { wooOrder, type WooOrder } from './schemas';

/** The official Shipment Tracking extension keeps an order's parcels in this meta, and answers at its own namespace. */
const TRACKING_META = '_wc_shipment_tracking_items';
export const TRACKING_NAMESPACE = 'wc-shipment-tracking/v3';
/** Orders asked per request: wc/v3's largest page. */
const BATCH = 100;

const trackingItem = z.object({
  tracking_provider: z.string().nullable().optional(),
  custom_tracking_provider: z.string().nullable().optional(),
  tracking_number: z.string().nullable().optional(),
});
const trackingItems = z.array(z.unknown());

/** The latest parcel with a tracking number, from the meta or the extension's list; null when there is none. */
export function trackingFrom(items: unknown): Tracking | null {
  const list = trackingItems.safeParse(items);
  if (!list.success) return null;
  for (const raw of [...list.data].reverse()) {
    const item = trackingItem.safeParse(raw);
    const number = item.success ? item.data.tracking_number?.trim() : undefined;
    if (!item.success || !number) continue;
    const carrier = item.data.custom_tracking_provider?.trim() || item.data.tracking_provider?.trim() || null;
    return { carrier: carrier ? carrier.slice(0, 191) : null, tracktrace: number.slice(0, 191) };
  }
  return null;
}

function trackingInMeta(order: WooOrder): Tracking | null | undefined {
  const meta = order.meta_data.find((entry) => entry.key === TRACKING_META);
  return meta ? trackingFrom(meta.value) : undefined;
}

/**
 * Tracking of a store's orders: the meta first; the extension's endpoint when the meta is not shown.
 * One per store run: a store without the extension is not asked for it again.
 */
export class TrackingReader {
  constructor(
    private readonly client: WooClient,
    private extension: WooClient | null,
  ) {}

  async read(shopOrderIds: readonly number[]): Promise<{ found: Map<number, Tracking>; failed: number }> {
    const result = { found: new Map<number, Tracking>(), failed: 0 };
    const { body: records } = await this.client.get('orders', z.array(wooOrder), { include: shopOrderIds.join(','), per_page: BATCH });
    const byId = new Map(records.map((record) => [record.id, record]));
    for (const shopOrderId of shopOrderIds) {
      const record = byId.get(shopOrderId);
      if (!record) continue;
      let tracking = trackingInMeta(record);
      if (tracking === undefined && this.extension) {
        try {
          const { body } = await this.extension.get(`orders/${record.id}/shipment-trackings`, trackingItems);
          tracking = trackingFrom(body);
        } catch (error) {
          // No extension installed: the store has no such route; stop asking it this run.
          if (error instanceof ShopApiError && (error.kind === 'not_woocommerce' || error.kind === 'no_permalinks')) this.extension = null;
          else result.failed += 1;
        }
      }
      if (tracking) result.found.set(shopOrderId, tracking);
    }
    return result;
  }
}

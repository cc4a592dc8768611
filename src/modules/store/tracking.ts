import { z } from 'zod';
import type { AppContext } from '../../context';
import { ShopApiError } from '../../integrations/errors';
import type { WooClient } from '../../integrations/woocommerce/client';
import { wooOrder, type WooOrder } from '../../integrations/woocommerce/schemas';
import { toDbDateTime } from '../../time';
import type { OrderRow } from '../orders/repository';
import { storeClient } from './storeClient';
import type { ShopRow } from './repository';

/** Orders asked per request: wc/v3's largest page. */
const BATCH = 100;
/** The official Shipment Tracking extension keeps an order's parcels in this meta, and answers at its own namespace. */
const TRACKING_META = '_wc_shipment_tracking_items';
const TRACKING_NAMESPACE = 'wc-shipment-tracking/v3';

const trackingItem = z.object({
  tracking_provider: z.string().nullable().optional(),
  custom_tracking_provider: z.string().nullable().optional(),
  tracking_number: z.string().nullable().optional(),
});
const trackingItems = z.array(z.unknown());

export interface Tracking {
  carrier: string | null;
  tracktrace: string;
}

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

/** Tracking of the orders of one store: the meta first; the extension's endpoint when the meta is not shown. */
async function trackStore(ctx: AppContext, shop: ShopRow, signal?: AbortSignal): Promise<{ processed: number; failed: number }> {
  const result = { processed: 0, failed: 0 };
  const client = storeClient(ctx, shop, { retries: 2 });
  let extension: WooClient | null = storeClient(ctx, shop, { retries: 1, version: TRACKING_NAMESPACE });
  let afterSeq = 0;
  for (;;) {
    if (signal?.aborted) return result;
    const orders = (await ctx
      .db<OrderRow>('orders')
      .where({ account_id: shop.account_id, status: 'paid' })
      .whereNotNull('shop_order_id')
      .andWhere('seq', '>', afterSeq)
      .orderBy('seq')
      .limit(BATCH)) as Array<OrderRow & { seq: number }>;
    if (!orders.length) return result;
    afterSeq = Number((orders[orders.length - 1] as { seq: number }).seq);
    const { body: records } = await client.get('orders', z.array(wooOrder), { include: orders.map((order) => Number(order.shop_order_id)).join(','), per_page: BATCH });
    const byId = new Map(records.map((record) => [record.id, record]));
    for (const order of orders) {
      const record = byId.get(Number(order.shop_order_id));
      if (!record) continue;
      let tracking = trackingInMeta(record);
      if (tracking === undefined && extension) {
        try {
          const { body } = await extension.get(`orders/${record.id}/shipment-trackings`, trackingItems);
          tracking = trackingFrom(body);
        } catch (error) {
          // No extension installed: the store has no such route; stop asking it this run.
          if (error instanceof ShopApiError && (error.kind === 'not_woocommerce' || error.kind === 'no_permalinks')) extension = null;
          else result.failed += 1;
        }
      }
      if (!tracking || (tracking.tracktrace === order.tracktrace && tracking.carrier === order.carrier)) continue;
      await ctx.db('orders').where({ account_id: shop.account_id, id: order.id }).update({ carrier: tracking.carrier, tracktrace: tracking.tracktrace, updated_at: toDbDateTime(ctx.clock.now()) });
      result.processed += 1;
    }
  }
}

/**
 * Shipment tracking of every store's paid orders not completed yet (the job, every 30 minutes):
 * fills `carrier` and `tracktrace`. A store that fails is logged and the others go on.
 */
export async function trackShipments(ctx: AppContext, signal?: AbortSignal): Promise<{ processed: number; failed: number }> {
  const result = { processed: 0, failed: 0 };
  const shops = await ctx.db<ShopRow>('shops').where({ status: 'connected' });
  for (const shop of shops) {
    if (signal?.aborted) break;
    try {
      const one = await trackStore(ctx, shop, signal);
      result.processed += one.processed;
      result.failed += one.failed;
    } catch (error) {
      result.failed += 1;
      ctx.logger.warn('shipment tracking of a store failed', { accountId: shop.account_id, error: error instanceof Error ? error.message.slice(0, 300) : String(error) });
    }
  }
  return result;
}

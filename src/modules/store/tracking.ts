import type { AppContext } from '../../context';
import { toDbDateTime } from '../../time';
import { ordersRepository } from '../orders/repository';
import { shopsRepository, type ShopRow } from './repository';
import { storeClient } from './storeClient';
import { errorMessage } from '../../errors';

/** Orders asked per batch: as many as the store reads in one request. */
const BATCH = 100;
/** A store's hiccup is retried twice; the next run (in 30 minutes) asks again anyway. */
const TRACKING_RETRIES = 2;

/** Tracking of the paid orders of one store, a batch at a time: an order whose tracking changed is updated. */
async function trackStore(ctx: AppContext, shop: ShopRow, signal?: AbortSignal): Promise<{ processed: number; failed: number }> {
  const result = { processed: 0, failed: 0 };
  const store = storeClient(ctx, shop, TRACKING_RETRIES);
  let afterSeq = 0;
  for (;;) {
    if (signal?.aborted) return result;
    const orders = await ordersRepository.paidStoreOrdersAfter(ctx.db, shop.account_id, afterSeq, BATCH);
    const last = orders[orders.length - 1];
    if (!last) return result;
    afterSeq = Number(last.seq);
    const { found, failed } = await store.readTracking(orders.map((order) => Number(order.shop_order_id)));
    result.failed += failed;
    for (const order of orders) {
      const tracking = found.get(Number(order.shop_order_id));
      if (!tracking || (tracking.tracktrace === order.tracktrace && tracking.carrier === order.carrier)) continue;
      await ordersRepository.update(ctx.db, shop.account_id, order.id, {
        carrier: tracking.carrier,
        tracktrace: tracking.tracktrace,
        updated_at: toDbDateTime(ctx.clock.now()),
      });
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
  const shops = await shopsRepository.connected(ctx.db);
  for (const shop of shops) {
    if (signal?.aborted) break;
    try {
      const one = await trackStore(ctx, shop, signal);
      result.processed += one.processed;
      result.failed += one.failed;
    } catch (error) {
      result.failed += 1;
      ctx.logger.warn('shipment tracking of a store failed', {
        accountId: shop.account_id,
        error: errorMessage(error).slice(0, 300),
      });
    }
  }
  return result;
}

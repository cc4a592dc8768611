import type { AppContext } from '../../context';
import { decryptSecret } from '../../crypto/secrets';
import { isUniqueViolation } from '../../db/connect';
import { mapOrder } from '../../integrations/woocommerce/orderMapping';
import { mapProduct } from '../../integrations/woocommerce/productMapping';
import { wooOrder, wooProduct } from '../../integrations/woocommerce/schemas';
import { validWooSignature } from '../../integrations/woocommerce/signature';
import { toDbDateTime } from '../../time';
import { accountsRepository } from '../accounts/repository';
import { shopsRepository } from './repository';
import { upsertStoreOrders } from './orderUpsert';
import { upsertStoreProducts } from './productUpsert';

export interface StoreDelivery {
  publicRef: string;
  rawBody: Buffer;
  contentType: string;
  headers: { signature?: string; topic?: string; deliveryId?: string };
}

/** What the receiver answers: 200 for a ping, an applied or a duplicate delivery; 401 unsigned; 404 unknown store. */
export type DeliveryOutcome = 'ping' | 'applied' | 'duplicate' | 'ignored' | 'unauthorized' | 'unknown';

/** A new webhook's first call: form-encoded `webhook_id=N`, unsigned. Only a 200 keeps it active. */
function isPing(delivery: StoreDelivery): boolean {
  return !delivery.headers.signature && /^webhook_id=\d+$/.test(delivery.rawBody.toString('utf8').trim());
}

/**
 * A WooCommerce webhook delivery: the signature is verified on the raw bytes before anything is read
 * or stored; a delivery id seen before is not applied again; a product or an order is applied as the
 * sync would.
 * Webhooks are a hint: the periodic sync is the truth, so what cannot be applied is left to it.
 */
export async function receiveStoreDelivery(ctx: AppContext, delivery: StoreDelivery): Promise<DeliveryOutcome> {
  const account = await accountsRepository.findByPublicRef(ctx.db, delivery.publicRef);
  const shop = account && (await shopsRepository.ofAccount(ctx.db, account.id));
  if (!account || !shop || shop.status !== 'connected') return 'unknown';
  if (isPing(delivery)) return 'ping';
  if (!validWooSignature(delivery.rawBody, delivery.headers.signature, decryptSecret(ctx.config.appKey, shop.webhook_secret_encrypted))) {
    ctx.logger.warn('store webhook with a missing or wrong signature refused', { accountId: account.id, topic: delivery.headers.topic });
    return 'unauthorized';
  }
  let body: unknown;
  try {
    body = JSON.parse(delivery.rawBody.toString('utf8'));
  } catch {
    return 'ignored';
  }
  const topic = delivery.headers.topic ?? '';
  const resourceId = typeof body === 'object' && body !== null && 'id' in body ? String((body as { id: unknown }).id) : null;
  const now = toDbDateTime(ctx.clock.now());
  if (delivery.headers.deliveryId) {
    try {
      await ctx.db('shop_webhook_deliveries').insert({ account_id: account.id, delivery_id: delivery.headers.deliveryId.slice(0, 64), topic: topic.slice(0, 40), resource_id: resourceId?.slice(0, 40) ?? null, received_at: now });
    } catch (error) {
      if (isUniqueViolation(error)) return 'duplicate';
      throw error;
    }
  }
  if (topic === 'product.created' || topic === 'product.updated') {
    return applyRecord(ctx, account.id, resourceId, 'product', () => upsertStoreProducts(ctx.db, account.id, [mapProduct(wooProduct.parse(body))], now));
  }
  if (topic === 'product.deleted' && resourceId && /^\d+$/.test(resourceId)) {
    await ctx.db('products').where({ account_id: account.id, shop_product_id: Number(resourceId) }).whereNull('deleted_at').update({ deleted_at: now, updated_at: now });
    return 'applied';
  }
  if (topic === 'order.created' || topic === 'order.updated') {
    return applyRecord(ctx, account.id, resourceId, 'order', () => upsertStoreOrders(ctx.db, account.id, [mapOrder(wooOrder.parse(body))], now));
  }
  if (topic === 'order.deleted' && resourceId && /^\d+$/.test(resourceId)) {
    // An order deleted in the store can no longer be paid or shipped: ours is cancelled, not removed.
    await ctx.db('orders').where({ account_id: account.id, shop_order_id: Number(resourceId) }).update({ status: 'cancelled', updated_at: now });
    return 'applied';
  }
  return 'ignored';
}

/** Applies a delivered record as the sync would; one the store sent in a shape we cannot use is left to the periodic sync. */
async function applyRecord(ctx: AppContext, accountId: string, resourceId: string | null, label: string, apply: () => Promise<unknown>): Promise<DeliveryOutcome> {
  try {
    await apply();
    return 'applied';
  } catch (error) {
    ctx.logger.warn(`store webhook ${label} could not be applied; the periodic sync retries it`, { accountId, resourceId, error: error instanceof Error ? error.message.slice(0, 300) : String(error) });
    return 'ignored';
  }
}

import type { AppContext } from '../../context';
import { decryptSecret } from '../../crypto/secrets';
import type { DeliveryHeaders } from '../../integrations/platform';
import { toDbDateTime } from '../../time';
import { accountsRepository } from '../accounts/repository';
import { ordersRepository } from '../orders/repository';
import { upsertStoreOrders } from '../orders/storeOrdersRepository';
import { productsRepository } from '../products/repository';
import { upsertStoreProducts } from '../products/storeProductsRepository';
import { webhookDeliveriesRepository } from './deliveriesRepository';
import { cancelSubscriptionsOfEndedOrders } from './endedOrders';
import { shopsRepository } from './repository';
import { storeClient } from './storeClient';
import { errorMessage } from '../../errors';

/** The store waits for the delivery's answer (5 s): a variable product is asked for once more at most, then left to the sync. */
const VARIATION_RETRIES = 1;

export interface StoreDeliveryRequest {
  /** The platform named in the webhook address. */
  platform: string;
  publicRef: string;
  rawBody: Buffer;
  headers: DeliveryHeaders;
}

/** What the receiver answers: 200 for a ping, an applied or a duplicate delivery; 401 unsigned; 404 unknown store. */
export type DeliveryOutcome = 'ping' | 'applied' | 'duplicate' | 'ignored' | 'unauthorized' | 'unknown';

/**
 * A store's webhook delivery: its platform checks the signature on the raw bytes before anything is
 * read or stored; a delivery whose content was seen before is not applied again (the platform says
 * what identifies it: never the store's delivery id alone); a product or an order is applied as the
 * sync would, which never rolls it back to an older state of the store.
 * Webhooks are a hint: the periodic sync is the truth, so what cannot be applied is left to it.
 */
export async function receiveStoreDelivery(ctx: AppContext, delivery: StoreDeliveryRequest): Promise<DeliveryOutcome> {
  const account = await accountsRepository.findByPublicRef(ctx.db, delivery.publicRef);
  const shop = account && (await shopsRepository.ofAccount(ctx.db, account.id));
  if (!account || !shop || shop.status !== 'connected' || shop.platform !== delivery.platform) return 'unknown';
  const read = ctx.platforms
    .get(shop.platform)
    .parseDelivery(delivery.rawBody, delivery.headers, decryptSecret(ctx.config.appKey, shop.webhook_secret_encrypted));
  if (read.kind === 'ping') {
    // The evidence that the store can deliver to us: connecting a store waits for it.
    await shopsRepository.update(ctx.db, account.id, { webhooks_pinged_at: toDbDateTime(ctx.clock.now()) });
    return 'ping';
  }
  if (read.kind === 'unauthorized') {
    ctx.logger.warn('store webhook with a missing or wrong signature refused', { accountId: account.id, topic: read.topic });
    return 'unauthorized';
  }
  if (read.kind === 'unreadable') return 'ignored';
  const now = toDbDateTime(ctx.clock.now());
  if (
    !(await webhookDeliveriesRepository.recordFirst(
      ctx.db,
      { accountId: account.id, contentKey: read.contentKey, deliveryId: read.deliveryId, topic: read.topic, resourceId: read.resourceId },
      now,
    ))
  ) {
    return 'duplicate';
  }
  const { change } = read;
  switch (change.type) {
    case 'product.saved':
      return applyRecord(ctx, account.id, read.resourceId, 'product', () => upsertStoreProducts(ctx.db, account.id, [change.read()], now));
    case 'product.variations':
      return applyRecord(ctx, account.id, read.resourceId, 'product', async () =>
        upsertStoreProducts(ctx.db, account.id, await storeClient(ctx, shop, VARIATION_RETRIES).fetchProducts([change.shopProductId]), now),
      );
    case 'product.deleted':
      await productsRepository.markDeletedInStore(ctx.db, account.id, change.shopProductId, now);
      return 'applied';
    case 'order.saved':
      return applyRecord(ctx, account.id, read.resourceId, 'order', async () => {
        const order = change.read();
        await upsertStoreOrders(ctx.db, account.id, [order], now);
        if (order.status === 'cancelled') await cancelSubscriptionsOfEndedOrders(ctx, account.id, [order.shopOrderId]);
      });
    case 'order.deleted':
      await ordersRepository.cancelByShopOrderId(ctx.db, account.id, change.shopOrderId, now);
      await cancelSubscriptionsOfEndedOrders(ctx, account.id, [change.shopOrderId]);
      return 'applied';
    case 'other':
      return 'ignored';
  }
}

/** Applies a delivered record as the sync would; one the store sent in a shape we cannot use is left to the periodic sync. */
async function applyRecord(
  ctx: AppContext,
  accountId: string,
  resourceId: string | null,
  label: string,
  apply: () => Promise<unknown>,
): Promise<DeliveryOutcome> {
  try {
    await apply();
    return 'applied';
  } catch (error) {
    ctx.logger.warn(`store webhook ${label} could not be applied; the periodic sync retries it`, {
      accountId,
      resourceId,
      error: errorMessage(error).slice(0, 300),
    });
    return 'ignored';
  }
}

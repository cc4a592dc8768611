import type { AppContext } from '../../context';
import { decryptSecret } from '../../crypto/secrets';
import { ValidationError } from '../../errors';
import type { StoreClient } from '../../integrations/platform';
import { shopsRepository, type ShopRow } from './repository';

/**
 * The API client of an account's store, on its platform, with its secret decrypted for this use
 * only. `retries`: attempts after the first for failures a retry may cure (the platform's default).
 */
export function storeClient(ctx: AppContext, shop: ShopRow, retries?: number): StoreClient {
  return ctx.platforms
    .get(shop.platform)
    .client(
      { url: shop.url, consumerKey: shop.consumer_key, consumerSecret: decryptSecret(ctx.config.appKey, shop.consumer_secret_encrypted) },
      { allowPrivate: ctx.config.outboundAllowPrivate, retries },
    );
}

/** The account's store when it is connected; undefined otherwise. */
export async function connectedStore(ctx: AppContext, accountId: string): Promise<ShopRow | undefined> {
  const shop = await shopsRepository.ofAccount(ctx.db, accountId);
  return shop && shop.status === 'connected' ? shop : undefined;
}

/** The account's connected store, or a 422 saying what to do first. */
export async function requireConnectedStore(ctx: AppContext, accountId: string, failure: string, field = 'shop'): Promise<ShopRow> {
  const shop = await connectedStore(ctx, accountId);
  if (!shop)
    throw ValidationError.field(failure, field, 'No store is connected to this account: connect one with POST /api/v2/shop first.');
  return shop;
}

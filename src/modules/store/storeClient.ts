import type { AppContext } from '../../context';
import { decryptSecret } from '../../crypto/secrets';
import { ConflictError } from '../../errors';
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

/**
 * A call that needs the account's store while none is connected (never connected, or disconnected
 * with `cli shops disconnect` or `DELETE /api/v2/shop`): a 409 with its own code, so a client such
 * as the plugin can tell "not connected" from a refused field or an outage, and act on it.
 */
export class ShopNotConnectedError extends ConflictError {
  constructor(failure: string) {
    super(`${failure}: no store is connected to this account; connect one with POST /api/v2/shop first`, 'shop_not_connected');
  }
}

/** The account's connected store, or a 409 `shop_not_connected` saying what to do first. */
export async function requireConnectedStore(ctx: AppContext, accountId: string, failure: string): Promise<ShopRow> {
  const shop = await connectedStore(ctx, accountId);
  if (!shop) throw new ShopNotConnectedError(failure);
  return shop;
}

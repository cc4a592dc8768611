import type { AppContext } from '../../context';
import { decryptSecret } from '../../crypto/secrets';
import { ValidationError } from '../../http/errors';
import { WooClient, type WooClientOptions } from '../../integrations/woocommerce/client';
import { shopsRepository, type ShopRow } from './repository';

/** The REST client of an account's store, with its secret decrypted for this use only. */
export function storeClient(ctx: AppContext, shop: ShopRow, options: WooClientOptions = {}): WooClient {
  return new WooClient({ url: shop.url, consumerKey: shop.consumer_key, consumerSecret: decryptSecret(ctx.config.appKey, shop.consumer_secret_encrypted) }, {
    allowPrivate: ctx.config.outboundAllowPrivate,
    ...options,
  });
}

/** The account's store when it is connected; undefined otherwise. */
export async function connectedStore(ctx: AppContext, accountId: string): Promise<ShopRow | undefined> {
  const shop = await shopsRepository.ofAccount(ctx.db, accountId);
  return shop && shop.status === 'connected' ? shop : undefined;
}

/** The account's connected store, or a 422 saying what to do first. */
export async function requireConnectedStore(ctx: AppContext, accountId: string, failure: string, field = 'shop'): Promise<ShopRow> {
  const shop = await connectedStore(ctx, accountId);
  if (!shop) throw ValidationError.field(failure, field, 'No store is connected to this account: connect one with POST /api/v2/shop first.');
  return shop;
}

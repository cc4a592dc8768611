import { isIP } from 'node:net';
import type { Account, AppContext } from '../../context';
import { encryptSecret } from '../../crypto/secrets';
import { NotFoundError, ValidationError } from '../../errors';
import { newId, randomBase62 } from '../../ids';
import { DEFAULT_SHOP_PLATFORM } from '../../integrations';
import { StoreConnectionRefused } from '../../integrations/errors';
import { toDbDateTime } from '../../time';
import { isPublicAddress } from '../../net/publicAddress';
import { webhookSecretOf } from '../../outbox/secret';
import { shopOrderView } from './orderView';
import { shopsRepository, type ShopRow } from './repository';
import type { ShopOrderView } from './schemas';
import { storeClient } from './storeClient';

const CONNECT_FAILED = 'Could not connect the store';

export interface ShopCredentialsInput {
  url: string;
  consumer_key: string;
  consumer_secret: string;
}

/** Connecting asks the store once more after a failure a retry may cure; the merchant is waiting. */
const CONNECT_RETRIES = 1;

/** Hosts that only this machine or its private network can reach. */
function isLocalHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (isIP(host)) return !isPublicAddress(host);
  return host === 'localhost' || /\.(localhost|local|internal|lan|home\.arpa)$/.test(host) || !host.includes('.');
}

/**
 * Whether the store can call PUBLIC_URL: yes when it is a public address; when it is local, only a
 * store on the same machine or network can (then it is local too).
 */
export function storeCanReach(publicUrl: string, storeUrl: string): boolean {
  return !isLocalHost(new URL(publicUrl).hostname) || isLocalHost(new URL(storeUrl).hostname);
}

/** Where the store delivers its webhooks for this account: its platform, and its opaque public ref, never its id. */
export const shopWebhookUrl = (publicUrl: string, platform: string, account: Pick<Account, 'public_ref'>) =>
  `${publicUrl}/webhooks/${platform}/${account.public_ref}`;

function refusal(error: unknown): never {
  if (error instanceof StoreConnectionRefused) throw new ValidationError(CONNECT_FAILED, { [error.field]: [error.message] });
  throw error;
}

function normalisedUrl(ctx: AppContext, url: string): string {
  const parsed = new URL(url);
  // A merchant's token must not make the service probe its own private network (SSRF), in production.
  if (!ctx.config.outboundAllowPrivate && isLocalHost(parsed.hostname)) {
    throw new ValidationError(CONNECT_FAILED, {
      url: ['The store address must be a public address (OUTBOUND_ALLOW_PRIVATE=on allows private ones).'],
    });
  }
  return `${parsed.origin}${parsed.pathname.replace(/\/+$/, '')}`;
}

/**
 * Connects the account's store: one REST call proves address and keys (a clear 422 naming what is
 * wrong otherwise), the credentials are kept with the secret encrypted, and our webhooks are
 * registered with a secret of ours — unless the store cannot reach PUBLIC_URL, which the state says:
 * the periodic sync then keeps everything current on its own. Connecting again replaces the
 * connection and the webhooks registered before.
 */
export async function connectShop(ctx: AppContext, account: Account, input: ShopCredentialsInput): Promise<ShopRow> {
  const url = normalisedUrl(ctx, input.url);
  const platform = ctx.platforms.get(DEFAULT_SHOP_PLATFORM);
  const connection = platform.client(
    { url, consumerKey: input.consumer_key, consumerSecret: input.consumer_secret },
    { allowPrivate: ctx.config.outboundAllowPrivate, retries: CONNECT_RETRIES },
  );
  await connection.verify().catch(refusal);
  const earlier = await shopsRepository.ofAccount(ctx.db, account.id);
  if (earlier?.status === 'connected' && earlier.webhook_ids) await removeOldWebhooks(ctx, earlier);

  const secret = `wcsec_${randomBase62(40)}`;
  const now = toDbDateTime(ctx.clock.now());
  const row: ShopRow = {
    id: earlier?.id ?? newId('shp'),
    account_id: account.id,
    platform: platform.name,
    url,
    consumer_key: input.consumer_key,
    consumer_secret_encrypted: encryptSecret(ctx.config.appKey, input.consumer_secret),
    webhook_secret_encrypted: encryptSecret(ctx.config.appKey, secret),
    webhook_ids: null,
    webhooks_state: 'not_reachable',
    webhooks_error: null,
    status: 'connected',
    // Another store (or the same again) starts from scratch: the first sync reads everything.
    products_cursor: earlier?.url === url ? earlier.products_cursor : null,
    orders_cursor: earlier?.url === url ? earlier.orders_cursor : null,
    connected_at: now,
    created_at: earlier?.created_at ?? now,
    updated_at: now,
  };
  if (storeCanReach(ctx.config.publicUrl, url)) {
    try {
      const ids = await connection.registerWebhooks(shopWebhookUrl(ctx.config.publicUrl, platform.name, account), secret);
      row.webhook_ids = JSON.stringify(ids);
      row.webhooks_state = 'registered';
    } catch (error) {
      row.webhooks_state = 'failed';
      row.webhooks_error = (error instanceof Error ? error.message : String(error)).slice(0, 500);
      ctx.logger.warn('store webhooks could not be registered; the periodic sync keeps the data current', {
        accountId: account.id,
        error: row.webhooks_error,
      });
    }
  }
  await shopsRepository.save(ctx.db, row);
  ctx.logger.info('store connected', { accountId: account.id, platform: row.platform, webhooks: row.webhooks_state });
  return row;
}

async function removeOldWebhooks(ctx: AppContext, shop: ShopRow): Promise<void> {
  const ids = JSON.parse(shop.webhook_ids ?? '[]') as number[];
  try {
    await storeClient(ctx, shop, CONNECT_RETRIES).removeWebhooks(ids);
  } catch (error) {
    // The old store (or its keys) may be gone; its webhooks then fail against a secret we no longer accept.
    ctx.logger.warn('webhooks of the earlier store connection could not be removed', {
      accountId: shop.account_id,
      error: error instanceof Error ? error.message : String(error),
    });
  }
}

/** Removes our webhooks from the store and forgets its credentials; synced products and orders stay. */
export async function disconnectShop(ctx: AppContext, account: Pick<Account, 'id'>): Promise<ShopRow> {
  const shop = await shopsRepository.ofAccount(ctx.db, account.id);
  if (!shop || shop.status !== 'connected') throw new NotFoundError('Shop');
  await removeOldWebhooks(ctx, shop);
  const now = toDbDateTime(ctx.clock.now());
  const changes = {
    status: 'disconnected' as const,
    webhook_ids: null,
    webhooks_state: 'not_reachable' as const,
    consumer_secret_encrypted: '',
    updated_at: now,
  };
  await shopsRepository.update(ctx.db, account.id, changes);
  return { ...shop, ...changes };
}

export async function getShop(ctx: AppContext, account: Pick<Account, 'id'>): Promise<ShopRow> {
  const shop = await shopsRepository.ofAccount(ctx.db, account.id);
  if (!shop) throw new NotFoundError('Shop');
  return shop;
}

/** The secret that signs the account's events; the plugin that connects the store verifies its callbacks with it. */
export function eventSigningSecret(ctx: AppContext, account: Pick<Account, 'id'>): Promise<string> {
  return webhookSecretOf(ctx, account.id);
}

/** One store order as the service sees it (the plugin's order box); 404 for an id that is not a store order id here. */
export function getShopOrder(ctx: AppContext, account: Pick<Account, 'id'>, shopOrderId: string): Promise<ShopOrderView> {
  if (!/^[1-9][0-9]{0,15}$/.test(shopOrderId)) throw new NotFoundError('Order');
  return shopOrderView(ctx.db, account.id, Number(shopOrderId), ctx.config.APP_TIMEZONE);
}

import { portalSettingsOf, type PortalSettings } from '../accounts/portalSettings';
import type { AppContext } from '../../context';
import type { Account } from '../accounts/account';
import { encryptSecret } from '../../crypto/secrets';
import { NotFoundError, ValidationError, errorMessage } from '../../errors';
import { newId, randomBase62 } from '../../ids';
import { DEFAULT_SHOP_PLATFORM } from '../../integrations';
import { StoreConnectionRefused } from '../../integrations/errors';
import type { StoreClient } from '../../integrations/platform';
import { isLocalHost } from '../../net/localHost';
import { toDbDateTime } from '../../time';
import { webhookSecretOf } from '../../events/secret';
import { shopOrderView } from './orderView';
import { unreachableReason } from './reachability';
import { checkShopWebhooks, checkedWebhooks, shopWebhookUrl } from './webhookHealth';
import { shopsRepository, type ShopRow } from './repository';
import type { ShopOrderView } from './schemas';
import { storeClient } from './storeClient';

const CONNECT_FAILED = 'Could not connect the store';

export interface ShopCredentialsInput {
  url: string;
  consumer_key: string;
  consumer_secret: string;
  /** The plugin's signed callback for subscription events; absent when connected without the plugin. */
  callback_url?: string;
}

/** Connecting asks the store once more after a failure a retry may cure; the merchant is waiting. */
const CONNECT_RETRIES = 1;

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
 * registered with a secret of ours. The shop is saved before: the store pings each new webhook and
 * the ping must find it (answered 200). Whether a ping arrived is what says the store can deliver
 * to PUBLIC_URL; when none did, the webhooks are removed again (they would only fail and be
 * disabled), the state says `not_reachable` and why, and the periodic sync keeps everything current
 * on its own. Connecting again replaces the connection and the webhooks registered before.
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
    webhooks_state: 'pending',
    webhooks_error: null,
    webhooks_pinged_at: null,
    webhooks_status: null,
    webhooks_checked_at: null,
    status: 'connected',
    // Another store (or the same again) starts from scratch: the first sync reads everything.
    products_cursor: earlier?.url === url ? earlier.products_cursor : null,
    orders_cursor: earlier?.url === url ? earlier.orders_cursor : null,
    connected_at: now,
    callback_url: input.callback_url ?? null,
    created_at: earlier?.created_at ?? now,
    updated_at: now,
  };
  await shopsRepository.save(ctx.db, row);
  const outcome = await registerWebhooks(ctx, account, connection, url, secret);
  Object.assign(row, outcome);
  await shopsRepository.update(ctx.db, account.id, outcome);
  ctx.logger.info('store connected', { accountId: account.id, platform: row.platform, webhooks: row.webhooks_state });
  return row;
}

type WebhookOutcome = Pick<
  ShopRow,
  'webhook_ids' | 'webhooks_state' | 'webhooks_error' | 'webhooks_pinged_at' | 'webhooks_status' | 'webhooks_checked_at'
>;

/** Registers our webhooks and judges by the store's pings whether they can arrive. */
async function registerWebhooks(
  ctx: AppContext,
  account: Account,
  connection: StoreClient,
  storeUrl: string,
  secret: string,
): Promise<WebhookOutcome> {
  const deliveryUrl = shopWebhookUrl(ctx.config.publicUrl, DEFAULT_SHOP_PLATFORM, account);
  const none = { webhook_ids: null, webhooks_pinged_at: null, webhooks_status: null, webhooks_checked_at: null };
  let ids: number[];
  try {
    ids = await connection.registerWebhooks(deliveryUrl, secret);
  } catch (error) {
    const message = errorMessage(error).slice(0, 500);
    ctx.logger.warn('store webhooks could not be registered; the periodic sync keeps the data current', {
      accountId: account.id,
      error: message,
    });
    return { ...none, webhooks_state: 'failed', webhooks_error: message };
  }
  // The store pinged each webhook before it answered: a ping that reached us is recorded on the shop by now.
  const pingedAt = (await shopsRepository.ofAccount(ctx.db, account.id))?.webhooks_pinged_at ?? null;
  if (ids.length > 0 && !pingedAt) {
    await removeWebhooks(ctx, account.id, connection, ids);
    const reason = unreachableReason(ctx.platforms.get(DEFAULT_SHOP_PLATFORM), deliveryUrl, storeUrl);
    ctx.logger.warn('the store cannot deliver webhooks to PUBLIC_URL; the periodic sync keeps the data current', {
      accountId: account.id,
      reason,
    });
    return { ...none, webhooks_state: 'not_reachable', webhooks_error: reason.slice(0, 500) };
  }
  // What the store says of them now (all active, or a webhook was refused after all); a failed look is left to the next check.
  const seen = await connection.checkWebhooks(ids).catch(() => null);
  const checked = seen ? checkedWebhooks(seen, toDbDateTime(ctx.clock.now())) : { ...none, webhook_ids: JSON.stringify(ids) };
  return { ...checked, webhooks_state: 'registered', webhooks_error: null, webhooks_pinged_at: pingedAt };
}

function removeOldWebhooks(ctx: AppContext, shop: ShopRow): Promise<void> {
  return removeWebhooks(ctx, shop.account_id, storeClient(ctx, shop, CONNECT_RETRIES), JSON.parse(shop.webhook_ids ?? '[]') as number[]);
}

async function removeWebhooks(ctx: AppContext, accountId: string, store: StoreClient, ids: number[]): Promise<void> {
  try {
    await store.removeWebhooks(ids);
  } catch (error) {
    // The old store (or its keys) may be gone; its webhooks then fail against a secret we no longer accept.
    ctx.logger.warn('store webhooks could not be removed', {
      accountId,
      error: errorMessage(error),
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
    webhooks_status: null,
    webhooks_checked_at: null,
    consumer_secret_encrypted: '',
    updated_at: now,
  };
  await shopsRepository.update(ctx.db, account.id, changes);
  return { ...shop, ...changes };
}

/**
 * The account's store connection, its webhooks' status read from the store now (once, not repaired:
 * the sync job repairs); when the store does not answer, the status of the last check.
 */
/** The account's portal settings, which the store's plugin follows when it offers subscription actions. */
export async function shopPortal(ctx: AppContext, account: Pick<Account, 'id'>): Promise<PortalSettings> {
  return portalSettingsOf(ctx.db, account.id);
}

export async function getShop(ctx: AppContext, account: Pick<Account, 'id'>): Promise<ShopRow> {
  const shop = await shopsRepository.ofAccount(ctx.db, account.id);
  if (!shop) throw new NotFoundError('Shop');
  try {
    return await checkShopWebhooks(ctx, shop, { repair: false });
  } catch (error) {
    ctx.logger.warn('store webhooks could not be checked; the last check is shown', {
      accountId: account.id,
      error: errorMessage(error).slice(0, 300),
    });
    return shop;
  }
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

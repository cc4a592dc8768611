import type { AppContext } from '../../context';
import { decryptSecret } from '../../crypto/secrets';
import type { StoreWebhookStatus } from '../../integrations/platform';
import { toDbDateTime } from '../../time';
import { accountsRepository } from '../accounts/repository';
import { shopsRepository, type ShopRow } from './repository';
import { storeClient } from './storeClient';

/** Where the store delivers its webhooks for this account: its platform, and its opaque public ref, never its id. */
export const shopWebhookUrl = (publicUrl: string, platform: string, account: { public_ref: string }) =>
  `${publicUrl}/webhooks/${platform}/${account.public_ref}`;

/** What the shop keeps of a check: the ids now ours, the statuses as the store reported them, and when. */
export function checkedWebhooks(
  seen: readonly StoreWebhookStatus[],
  now: string,
): Pick<ShopRow, 'webhook_ids' | 'webhooks_status' | 'webhooks_checked_at'> {
  return {
    webhook_ids: JSON.stringify(seen.flatMap((hook) => (hook.id === null ? [] : [hook.id]))),
    webhooks_status: JSON.stringify(seen),
    webhooks_checked_at: now,
  };
}

/**
 * Reads our webhooks' status from the store and keeps it on the shop. A store may never retry a
 * failed delivery and may disable a webhook after a few failures in a row, so a webhook we
 * registered may deliver nothing. With `repair` (the sync job) a disabled, paused or missing one is
 * set active or registered again; the incremental sync that follows catches up what it missed.
 * Only for webhooks that were registered: a store that cannot reach us has none.
 */
export async function checkShopWebhooks(ctx: AppContext, shop: ShopRow, options: { repair: boolean }): Promise<ShopRow> {
  if (shop.status !== 'connected' || shop.webhooks_state !== 'registered') return shop;
  // A look for the shop owner asks once; the job may retry as every store call does.
  const store = storeClient(ctx, shop, options.repair ? undefined : 0);
  let seen = await store.checkWebhooks(JSON.parse(shop.webhook_ids ?? '[]') as number[]);
  const broken = seen.filter((hook) => hook.status !== 'active');
  if (options.repair && broken.length > 0) {
    const account = await accountsRepository.findById(ctx.db, shop.account_id);
    if (account) {
      const secret = decryptSecret(ctx.config.appKey, shop.webhook_secret_encrypted);
      seen = await store.repairWebhooks(seen, shopWebhookUrl(ctx.config.publicUrl, shop.platform, account), secret);
      ctx.logger.warn('store webhooks were not delivering: set active or registered again', {
        accountId: shop.account_id,
        webhooks: broken.map((hook) => `${hook.topic}: ${hook.status}`),
      });
    }
  }
  const changes = checkedWebhooks(seen, toDbDateTime(ctx.clock.now()));
  await shopsRepository.update(ctx.db, shop.account_id, changes);
  return { ...shop, ...changes };
}

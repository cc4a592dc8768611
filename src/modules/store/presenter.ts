import { PORTAL_ACTIONS, type PortalSettings } from '../accounts/portalSettings';
import type { Config } from '../../config';
import type { Account } from '../accounts/account';
import { formatNullableDateTime } from '../../time';
import type { ShopRow } from './repository';
import type { ShopResponse } from './schemas';
import { shopWebhookUrl } from './webhookHealth';
import type { StoreWebhookStatus } from '../../integrations/platform';

/** The connection as the merchant sees it: never the secret, the key only masked. */
export function presentShop(config: Config, account: Pick<Account, 'public_ref'>, row: ShopRow, portal: PortalSettings): ShopResponse {
  return {
    // Only the default platform is connected through the API (its REST API keys are the body).
    platform: row.platform as ShopResponse['platform'],
    url: row.url,
    status: row.status,
    consumer_key: `ck_…${row.consumer_key.slice(-4)}`,
    webhooks: {
      state: row.webhooks_state,
      delivery_url: shopWebhookUrl(config.publicUrl, row.platform, account),
      error: row.webhooks_state === 'failed' ? row.webhooks_error : null,
      reason: row.webhooks_state === 'not_reachable' ? row.webhooks_error : null,
      last_ping_at: formatNullableDateTime(row.webhooks_pinged_at, config.APP_TIMEZONE),
      in_store: (JSON.parse(row.webhooks_status ?? '[]') as StoreWebhookStatus[]).map(({ topic, id, status }) => ({ topic, id, status })),
      last_checked_at: formatNullableDateTime(row.webhooks_checked_at, config.APP_TIMEZONE),
    },
    connected_at: formatNullableDateTime(row.connected_at, config.APP_TIMEZONE),
    portal: { allowed_actions: PORTAL_ACTIONS.filter((action) => portal.allowed.has(action)), max_pause_days: portal.maxPauseDays },
  };
}

import type { ShopPlatform } from '../../integrations/platform';

/** What the shop owner is told when the store's pings did not reach us: the platform's own refusal, if its rules give one. */
export function unreachableReason(platform: Pick<ShopPlatform, 'webhookRefusal'>, deliveryUrl: string, storeUrl: string): string {
  return (
    platform.webhookRefusal(deliveryUrl, storeUrl) ??
    `the store's ping did not reach ${new URL(deliveryUrl).origin}: is PUBLIC_URL reachable from the store's network?`
  );
}

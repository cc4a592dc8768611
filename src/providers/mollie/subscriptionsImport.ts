import type { Config } from '../../config';
import type { ProviderSubscriptionsImport } from '../adapter';

/**
 * Mollie's Subscriptions API as an import source (`mollie-subscriptions`: a value of the imports API
 * and stored on every subscription imported from it, so it never changes).
 */
export const mollieSubscriptionsImport = {
  sourceName: 'mollie-subscriptions',
  billerName: 'Mollie',
  description: "the account's subscriptions at Mollie",
  cancelReachesWithinMs: (config: Config) => config.MOLLIE_TIMEOUT_MS,
} as const satisfies ProviderSubscriptionsImport;

import type { StoreSubscriptionsImport } from '../platform';
import { OUR_GATEWAY } from './subscriptions';

/**
 * WooCommerce Subscriptions as an import source (`woocommerce-subscriptions`: a value of the imports
 * API and stored on every subscription imported from it, so it never changes): the subscriptions
 * Mollie's WooCommerce plugin bills, handed to our gateway.
 */
export const wooSubscriptionsImport = {
  sourceName: 'woocommerce-subscriptions',
  extensionName: 'WooCommerce Subscriptions',
  description: "the connected store's, billed by Mollie's WooCommerce plugin",
  subscriptionLabel: 'WooCommerce subscription',
  ourGateway: OUR_GATEWAY,
  fromProvider: { name: 'mollie', displayName: 'Mollie' },
} as const satisfies StoreSubscriptionsImport;

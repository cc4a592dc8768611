import type { ShopPlatform } from '../platform';
import { parseDelivery } from './deliveries';
import { WooStoreClient } from './storeClient';
import { wooSubscriptionsImport } from './subscriptionsImport';
import { wordPressRefusal } from './webhookPorts';

/** WooCommerce (wc/v3, WordPress): the store platform there is. */
export const wooCommerce = {
  name: 'woocommerce',
  displayName: 'WooCommerce',
  client: (credentials, options) => new WooStoreClient(credentials, options),
  parseDelivery,
  webhookRefusal: wordPressRefusal,
  subscriptionsImport: wooSubscriptionsImport,
} as const satisfies ShopPlatform;

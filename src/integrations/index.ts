import type { ShopPlatform } from './platform';
import { wooCommerce } from './woocommerce/platform';
import { wooSubscriptionsImport } from './woocommerce/subscriptionsImport';

export type { ShopPlatform, StoreSubscriptionsImport } from './platform';

/**
 * The store platforms the service can connect, by name (`shops.platform`). A platform is one folder
 * here and one line below.
 */
const BUILT_IN: readonly ShopPlatform[] = [wooCommerce];

export interface ShopPlatformRegistry {
  /** The platform of a connected store; throws for a name no platform has (a row written by a newer version). */
  get(name: string): ShopPlatform;
  has(name: string): boolean;
  /** Adds a platform beside the built-in ones: how tests bring a platform of their own. */
  add(platform: ShopPlatform): void;
}

export function createShopPlatforms(): ShopPlatformRegistry {
  const platforms = new Map(BUILT_IN.map((platform) => [platform.name, platform]));
  return {
    get(name) {
      const platform = platforms.get(name);
      if (!platform) throw new Error(`no store platform is called "${name}"`);
      return platform;
    },
    has: (name) => platforms.has(name),
    add(platform) {
      if (platforms.has(platform.name)) throw new Error(`a store platform called "${platform.name}" exists already`);
      platforms.set(platform.name, platform);
    },
  };
}

/** The platform `POST /api/v2/shop` and `cli shops connect` connect: what they take is its REST API keys. */
export const DEFAULT_SHOP_PLATFORM = wooCommerce.name;
/** Its name as people are told it. */
export const DEFAULT_SHOP_PLATFORM_DISPLAY_NAME = wooCommerce.displayName;

/**
 * The store platform whose subscriptions extension an import reads and hands over (one today). Named
 * here, not looked up, for its source name is a value of the API.
 */
export const STORE_SUBSCRIPTIONS_IMPORT = wooSubscriptionsImport;

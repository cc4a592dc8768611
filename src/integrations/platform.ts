/** What the service needs of a store platform at connection time; WooCommerce is the one there is. */
export interface ShopConnectionCheck {
  /** Answers when the address is a store whose API accepts the keys; throws a ShopApiError otherwise. */
  verify(): Promise<void>;
  /** Registers our webhooks for `topics` at `deliveryUrl`, signed with `secret`; answers their ids. */
  registerWebhooks(topics: readonly string[], deliveryUrl: string, secret: string): Promise<number[]>;
  /** Removes webhooks we registered; ids the store no longer has are ignored. */
  removeWebhooks(ids: readonly number[]): Promise<void>;
}

/** The store events the service listens to: products and orders, made, changed and deleted. */
export const SHOP_WEBHOOK_TOPICS = ['product.created', 'product.updated', 'product.deleted', 'order.created', 'order.updated', 'order.deleted'] as const;

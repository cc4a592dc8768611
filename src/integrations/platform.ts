import type {
  PaymentForStore,
  RenewalOrder,
  StoreOrder,
  StoreOrderRef,
  StoreProduct,
  StoreRecordKind,
  StoreRecords,
  StoreSubscription,
  StoreSubscriptionOrder,
  StoreSubscriptionPage,
  Tracking,
} from './records';

/** How the service reaches one store: its address and API keys (the secret decrypted for this use only). */
export interface StoreCredentials {
  url: string;
  consumerKey: string;
  consumerSecret: string;
}

export interface StoreClientOptions {
  /** OUTBOUND_ALLOW_PRIVATE: off, the store must be at a public address (SSRF). */
  allowPrivate: boolean;
  /** Attempts after the first for failures a retry may cure (the platform's default when left out). */
  retries?: number;
}

/** A page of records changed in the store, mapped; records that cannot be used fail alone. */
export interface ChangedPage<Record> {
  totalPages: number;
  records: Record[];
  /** The store's id of each record it answered in a shape we cannot use, and why. */
  rejected: Array<{ id: unknown; error: string }>;
  /** The newest modification among the page's records (the next cursor), null when none says. */
  newest: string | null;
}

/** One of our webhooks as the store reports it: `missing` when the store no longer has it. */
export interface StoreWebhookStatus {
  topic: string;
  /** The store's id of the webhook; null when missing. */
  id: number | null;
  status: 'active' | 'paused' | 'disabled' | 'missing';
}

/**
 * One store, through its platform's API. Every call may throw a ShopApiError (integrations/errors)
 * saying what went wrong and whether a retry helps.
 */
export interface StoreClient {
  /** Answers when the address is a store whose API accepts the keys; throws a StoreConnectionRefused otherwise. */
  verify(): Promise<void>;
  /** Registers the platform's webhooks for the store events the service listens to; answers their ids. */
  registerWebhooks(deliveryUrl: string, secret: string): Promise<number[]>;
  /** Removes webhooks we registered; ids the store no longer has are ignored. */
  removeWebhooks(ids: readonly number[]): Promise<void>;
  /** Our webhooks (these ids) as the store reports them now, one per topic we listen to; a topic without one is `missing`. */
  checkWebhooks(ids: readonly number[]): Promise<StoreWebhookStatus[]>;
  /**
   * Makes every webhook of `seen` deliver again: one that is not active is set active, a missing one
   * is registered anew. Answers them as they are afterwards.
   */
  repairWebhooks(seen: readonly StoreWebhookStatus[], deliveryUrl: string, secret: string): Promise<StoreWebhookStatus[]>;

  /** One order as the store has it now; a ShopApiError with status 404 when it has none. */
  fetchOrder(shopOrderId: number): Promise<StoreOrder>;
  /**
   * These products as the store has them now (deleted ones included). A product sold as its variations
   * comes with them: asked for a variation, ask for its parent (parentShopProductId of the order line).
   */
  fetchProducts(shopProductIds: readonly number[]): Promise<StoreProduct[]>;
  /**
   * Every record of a kind changed since the cursor (all of them when `since` is null), page by page
   * as they arrive, in any order. The cursor is the platform's own text: the newest a page says.
   */
  listChanged<K extends StoreRecordKind>(
    kind: K,
    since: string | null,
    onPage: (page: ChangedPage<StoreRecords[K]>) => Promise<void>,
  ): Promise<void>;

  /**
   * The order is paid by this payment: marked paid unless the merchant moved it on already, and noted; the subscriptions it
   * started (none: nothing) are kept on it for the plugin.
   */
  markPaid(shopOrderId: number, payment: PaymentForStore, subscriptionIds?: readonly string[]): Promise<void>;
  /** A payment of the order ended without money: noted; the order stays payable. */
  noteUnpaid(shopOrderId: number, payment: PaymentForStore): Promise<void>;
  /** The renewal order made by an earlier attempt whose answer was lost, if the store has it. */
  findRenewalOrder(parentShopOrderId: number, serviceOrderId: string): Promise<StoreOrderRef | null>;
  /** Makes the renewal order; never retried by itself (a retry after a lost answer would make a second one). */
  createRenewalOrder(renewal: RenewalOrder): Promise<StoreOrderRef>;
  /** Settles the renewal order as its payment came to (paid, or failed while pending), and notes it. */
  settleRenewal(shopOrderId: number, parentShopOrderNumber: string, payment: PaymentForStore): Promise<void>;
  /** Notes on a paid order why it started no subscription. */
  noteSubscriptionRefused(shopOrderId: number, reason: string): Promise<void>;

  /** Tracking of these orders (at most 100) where the store has tracking; a failed look-up is counted, the others go on. */
  readTracking(shopOrderIds: readonly number[]): Promise<{ found: Map<number, Tracking>; failed: number }>;

  /**
   * One page (1 first) of the subscriptions the store's subscriptions extension keeps, every status,
   * oldest first; one in a shape we cannot use is rejected alone, named.
   */
  listSubscriptions(page: number): Promise<StoreSubscriptionPage>;
  /** One of the store's subscriptions as it is now; a ShopApiError with status 404 when it has none. */
  fetchSubscription(shopSubscriptionId: number): Promise<StoreSubscription>;
  /**
   * Hands the store's subscription to our gateway, so that the store bills it no more itself (the
   * service does), with the service's subscription that bills it kept on it (the plugin tells that one
   * of status changes); answers it as the store has it afterwards. A store that does not take both
   * throws a ShopApiError (`refused`). Call it only once the service's own subscription holds the next charge.
   */
  switchToOurGateway(shopSubscriptionId: number, serviceSubscriptionId: string): Promise<StoreSubscription>;
  /**
   * The orders of the store's subscription (the one it was bought with, its renewals), with the
   * provider's customer and mandate each keeps; a ShopApiError with status 404 when it has none.
   */
  subscriptionOrders(shopSubscriptionId: number): Promise<StoreSubscriptionOrder[]>;
}

/** What a store changed, as one webhook delivery says. Reading a record throws an Error naming what is wrong. */
export type StoreChange =
  | { type: 'product.saved'; read(): StoreProduct }
  | { type: 'product.deleted'; shopProductId: number }
  /** A product sold as its variations, or one of them, changed: the product is read from the store with them (fetchProducts). */
  | { type: 'product.variations'; shopProductId: number }
  | { type: 'order.saved'; read(): StoreOrder }
  | { type: 'order.deleted'; shopOrderId: number }
  | { type: 'other' };

/** A webhook delivery, read: a ping of a new webhook, one not signed with our secret, an unreadable body, or a change. */
export type StoreDelivery =
  | { kind: 'ping' }
  | { kind: 'unauthorized'; topic: string | undefined }
  | { kind: 'unreadable' }
  | {
      kind: 'change';
      /** The store's own delivery id: for diagnostics only, the store may give several deliveries the same one. */
      deliveryId: string | null;
      /**
       * What identifies the delivery's content (at most 191 characters): the same for a delivery sent
       * again, different for any other change. A delivery whose key was seen before is not applied again.
       */
      contentKey: string;
      topic: string;
      resourceId: string | null;
      change: StoreChange;
    };

/** Request headers as Node gives them (lower-case names). */
export type DeliveryHeaders = Readonly<Record<string, string | string[] | undefined>>;

/**
 * A store platform (WooCommerce, …): everything the store module needs of it, in one adapter folder
 * under src/integrations, listed in the registry (src/integrations/index.ts).
 */
export interface ShopPlatform {
  /** The name in `shops.platform` and in the webhook address (`/webhooks/<name>/<account ref>`). */
  readonly name: string;
  /** How people are told about it: "Connect the … store". */
  readonly displayName: string;
  client(credentials: StoreCredentials, options: StoreClientOptions): StoreClient;
  /** Reads a webhook delivery, checking its signature with our `secret` on the raw bytes before anything else. */
  parseDelivery(raw: Buffer, headers: DeliveryHeaders, secret: string): StoreDelivery;
  /**
   * Why the store software as shipped would refuse to send webhooks from the store at `storeUrl` to
   * `deliveryUrl` (a port or address its own rules forbid), or null when its rules let them through.
   * Only an explanation for the merchant: whether webhooks arrive is judged by the store's ping alone.
   */
  webhookRefusal(deliveryUrl: string, storeUrl: string): string | null;
  /** The subscriptions its subscriptions extension bills, as an import source; absent when it has none. */
  readonly subscriptionsImport?: StoreSubscriptionsImport;
}

/**
 * A platform whose subscriptions extension bills subscriptions in the store through a provider's
 * gateway: the import reads them (StoreClient.listSubscriptions, subscriptionOrders) and hands each to
 * our gateway (switchToOurGateway). What the import needs of it that the StoreClient does not say.
 */
export interface StoreSubscriptionsImport {
  /** The import source's name: the imports API's and the CLI's `source`, kept on each subscription imported. */
  readonly sourceName: string;
  /** The extension as the merchant knows it ("Could not import from …"). */
  readonly extensionName: string;
  /** The source in the API's reference, after its name: "(…)". */
  readonly description: string;
  /** How a description or an invoice line names one of its subscriptions, before ` #<its id>`. */
  readonly subscriptionLabel: string;
  /** Our gateway's id in the store: a subscription paid through it is billed by the service already. */
  readonly ourGateway: string;
  /** The provider whose gateways' subscriptions are taken over (`StoreSubscription.provider`), and its name in messages. */
  readonly fromProvider: { readonly name: string; readonly displayName: string };
}

import { ShopApiError } from '../../src/integrations/errors';
import type { ChangedPage, ShopPlatform, StoreClient } from '../../src/integrations/platform';
import type {
  PaymentForStore,
  RenewalOrder,
  StoreOrder,
  StoreOrderRef,
  StoreProduct,
  StoreRecordKind,
  StoreRecords,
  StoreSubscription,
  Tracking,
} from '../../src/integrations/records';

/**
 * A store platform of the tests' own: a store held in memory, reached without any network. It shows
 * that a platform is one adapter registered beside WooCommerce (ctx.platforms.add), with no module
 * touched, and records what the service told it.
 */
export class MemoryStore {
  readonly orders = new Map<number, StoreOrder>();
  readonly products = new Map<number, StoreProduct>();
  /** Its subscriptions extension's subscriptions; one handed to the service names `memory-service` as its gateway. */
  readonly subscriptions = new Map<number, StoreSubscription>();
  /** What the service told the store, in order: `paid <order> <payment>`, `unpaid …`, `renewal …`. */
  readonly told: string[] = [];
  private nextId = 7000;

  addProduct(product: Omit<StoreProduct, 'shopProductId'>): number {
    const shopProductId = (this.nextId += 1);
    this.products.set(shopProductId, { shopProductId, ...product });
    return shopProductId;
  }

  addOrder(order: Omit<StoreOrder, 'shopOrderId' | 'shopOrderNumber'>): number {
    const shopOrderId = (this.nextId += 1);
    this.orders.set(shopOrderId, { shopOrderId, shopOrderNumber: `M-${shopOrderId}`, ...order });
    return shopOrderId;
  }

  /** The store's API as the platform contract asks it. */
  client(): StoreClient {
    // The client's methods are an object literal's, whose own `this` is the client.
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    const store = this;
    const notFound = (what: string) => new ShopApiError('refused', `the memory store has no ${what}`, 404);
    return {
      verify: async () => undefined,
      registerWebhooks: async () => [],
      removeWebhooks: async () => undefined,
      // It registers none: there is nothing to check or repair.
      checkWebhooks: async () => [],
      repairWebhooks: async (seen) => [...seen],
      async fetchOrder(shopOrderId) {
        const order = store.orders.get(shopOrderId);
        if (!order) throw notFound(`order ${shopOrderId}`);
        return order;
      },
      // A product sold as its variations comes with them, as the contract says.
      fetchProducts: async (ids) =>
        [...store.products.values()].filter(
          (product) => ids.includes(product.shopProductId) || ids.includes(product.parentShopProductId ?? -1),
        ),
      async listChanged<K extends StoreRecordKind>(
        kind: K,
        _since: string | null,
        onPage: (page: ChangedPage<StoreRecords[K]>) => Promise<void>,
      ) {
        // Everything is new to a sync of this store: one page, no cursor.
        const records = (kind === 'products' ? [...store.products.values()] : [...store.orders.values()]) as Array<StoreRecords[K]>;
        await onPage({ totalPages: 1, records, rejected: [], newest: null });
      },
      async markPaid(shopOrderId: number, payment: PaymentForStore) {
        const order = store.orders.get(shopOrderId);
        if (!order) throw notFound(`order ${shopOrderId}`);
        store.orders.set(shopOrderId, { ...order, status: 'paid' });
        store.told.push(`paid ${shopOrderId} ${payment.id}`);
      },
      async noteUnpaid(shopOrderId: number, payment: PaymentForStore) {
        store.told.push(`unpaid ${shopOrderId} ${payment.id}`);
      },
      findRenewalOrder: async () => null,
      async createRenewalOrder(renewal: RenewalOrder): Promise<StoreOrderRef> {
        const shopOrderId = (store.nextId += 1);
        store.told.push(`renewal ${shopOrderId} of ${renewal.parentShopOrderId} ${renewal.payment.id}`);
        return { shopOrderId, shopOrderNumber: `M-${shopOrderId}` };
      },
      settleRenewal: async () => undefined,
      noteSubscriptionRefused: async () => undefined,
      readTracking: async () => ({ found: new Map<number, Tracking>(), failed: 0 }),
      // All of them on one page.
      listSubscriptions: async (page) => ({
        page,
        totalPages: 1,
        total: store.subscriptions.size,
        subscriptions: page === 1 ? [...store.subscriptions.values()] : [],
        rejected: [],
      }),
      async fetchSubscription(shopSubscriptionId) {
        const subscription = store.subscriptions.get(shopSubscriptionId);
        if (!subscription) throw notFound(`subscription ${shopSubscriptionId}`);
        return subscription;
      },
      async switchToOurGateway(shopSubscriptionId, serviceSubscriptionId) {
        const subscription = store.subscriptions.get(shopSubscriptionId);
        if (!subscription) throw notFound(`subscription ${shopSubscriptionId}`);
        const switched = {
          ...subscription,
          paymentMethod: 'memory-service',
          provider: null,
          requiresManualRenewal: false,
          serviceSubscriptionId,
        };
        store.subscriptions.set(shopSubscriptionId, switched);
        store.told.push(`switched ${shopSubscriptionId}`);
        return switched;
      },
      // Its parent order, when it names one the store has (no renewals: this store makes none itself).
      async subscriptionOrders(shopSubscriptionId) {
        const subscription = store.subscriptions.get(shopSubscriptionId);
        if (!subscription) throw notFound(`subscription ${shopSubscriptionId}`);
        const parent = subscription.parentShopOrderId ? store.orders.get(subscription.parentShopOrderId) : undefined;
        return parent ? [{ relation: 'parent' as const, order: parent, providerCustomerId: null, providerMandateId: null }] : [];
      },
    };
  }
}

export const MEMORY_PLATFORM = 'memorystore';

/** The platform, over one store whatever the credentials. It sends no webhooks: a delivery claiming to be its is refused. */
export function memoryStorePlatform(store: MemoryStore): ShopPlatform {
  return {
    name: MEMORY_PLATFORM,
    displayName: 'Memory store',
    client: () => store.client(),
    parseDelivery: () => ({ kind: 'unauthorized', topic: undefined }),
    // No rule of its own refuses an address: it sends no webhooks at all.
    webhookRefusal: () => null,
  };
}

import { z } from 'zod';
import type { ChangedPage, StoreClient, StoreClientOptions, StoreCredentials, StoreWebhookStatus } from '../platform';
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
} from '../records';
import { listChanged } from './changes';
import { WooClient } from './client';
import { checkWebhooks, registerWebhooks, removeWebhooks, repairWebhooks, verifyStore } from './connection';
import { mapOrder } from './orderMapping';
import { createRenewalOrder, findRenewalOrder, markPaid, noteSubscriptionRefused, noteUnpaid, settleRenewal } from './orderWrites';
import { wooOrder, wooProduct } from './schemas';
import { fetchSubscription, listSubscriptions, OUR_GATEWAY, subscriptionOrders, switchSubscriptionToGateway } from './subscriptions';
import { TRACKING_NAMESPACE, TrackingReader } from './tracking';
import { productsOfAll } from './variations';

/** One WooCommerce store through wc/v3, within the store's request budget. */
export class WooStoreClient implements StoreClient {
  private readonly client: WooClient;
  private tracking: TrackingReader | undefined;

  constructor(
    private readonly credentials: StoreCredentials,
    private readonly options: StoreClientOptions,
  ) {
    this.client = new WooClient(credentials, options);
  }

  /** Another client of the same store, for calls that retry differently or use another namespace. */
  private variant(retries: number, version?: string): WooClient {
    return new WooClient(this.credentials, { ...this.options, retries, version });
  }

  verify(): Promise<void> {
    return verifyStore(this.client);
  }

  registerWebhooks(deliveryUrl: string, secret: string): Promise<number[]> {
    return registerWebhooks(this.client, deliveryUrl, secret);
  }

  removeWebhooks(ids: readonly number[]): Promise<void> {
    return removeWebhooks(this.client, ids);
  }

  checkWebhooks(ids: readonly number[]): Promise<StoreWebhookStatus[]> {
    return checkWebhooks(this.client, ids);
  }

  repairWebhooks(seen: readonly StoreWebhookStatus[], deliveryUrl: string, secret: string): Promise<StoreWebhookStatus[]> {
    return repairWebhooks(this.client, seen, deliveryUrl, secret);
  }

  async fetchOrder(shopOrderId: number): Promise<StoreOrder> {
    return mapOrder((await this.client.get(`orders/${shopOrderId}`, wooOrder)).body);
  }

  async fetchProducts(shopProductIds: readonly number[]): Promise<StoreProduct[]> {
    const { body } = await this.client.get('products', z.array(wooProduct), {
      include: shopProductIds.join(','),
      status: 'any',
      per_page: 100,
    });
    const { records, rejected } = await productsOfAll(this.client, body);
    const first = rejected[0];
    if (first) throw new Error(`product ${String(first.id)}: ${first.error}`);
    return records;
  }

  listChanged<K extends StoreRecordKind>(
    kind: K,
    since: string | null,
    onPage: (page: ChangedPage<StoreRecords[K]>) => Promise<void>,
  ): Promise<void> {
    return listChanged(this.client, kind, since, onPage);
  }

  markPaid(shopOrderId: number, payment: PaymentForStore, subscriptionIds: readonly string[] = []): Promise<void> {
    return markPaid(this.client, shopOrderId, payment, subscriptionIds);
  }

  noteUnpaid(shopOrderId: number, payment: PaymentForStore): Promise<void> {
    return noteUnpaid(this.client, shopOrderId, payment);
  }

  findRenewalOrder(parentShopOrderId: number, serviceOrderId: string): Promise<StoreOrderRef | null> {
    return findRenewalOrder(this.client, parentShopOrderId, serviceOrderId);
  }

  createRenewalOrder(renewal: RenewalOrder): Promise<StoreOrderRef> {
    return createRenewalOrder(this.variant(0), renewal);
  }

  settleRenewal(shopOrderId: number, parentShopOrderNumber: string, payment: PaymentForStore): Promise<void> {
    return settleRenewal(this.client, shopOrderId, parentShopOrderNumber, payment);
  }

  noteSubscriptionRefused(shopOrderId: number, reason: string): Promise<void> {
    return noteSubscriptionRefused(this.client, shopOrderId, reason);
  }

  readTracking(shopOrderIds: readonly number[]): Promise<{ found: Map<number, Tracking>; failed: number }> {
    this.tracking ??= new TrackingReader(this.client, this.variant(1, TRACKING_NAMESPACE));
    return this.tracking.read(shopOrderIds);
  }

  listSubscriptions(page: number): Promise<StoreSubscriptionPage> {
    return listSubscriptions(this.client, page);
  }

  fetchSubscription(shopSubscriptionId: number): Promise<StoreSubscription> {
    return fetchSubscription(this.client, shopSubscriptionId);
  }

  switchToOurGateway(shopSubscriptionId: number, serviceSubscriptionId: string): Promise<StoreSubscription> {
    return switchSubscriptionToGateway(this.client, shopSubscriptionId, OUR_GATEWAY, serviceSubscriptionId);
  }

  subscriptionOrders(shopSubscriptionId: number): Promise<StoreSubscriptionOrder[]> {
    return subscriptionOrders(this.client, shopSubscriptionId);
  }
}

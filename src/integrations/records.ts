import type { IntervalUnit } from '../time/calendar';

/**
 * What a store platform's records become here, whatever the platform: the fields sync writes and
 * compares. Money in cents; store ids are the platform's own (integers).
 */

/**
 * Our order statuses a store order can have (an order is charged back only here), and `draft`: a
 * checkout the buyer has not placed yet (WooCommerce's Checkout block keeps its cart as one). A draft
 * is not an order: it is not written here until the store makes it a real one.
 */
export type StoreOrderStatus = 'draft' | 'unpaid' | 'pending' | 'paid' | 'completed' | 'cancelled';

/** A line of a store order: the product bought, a variation's own id when one was chosen. */
export interface StoreOrderLine {
  shopProductId: number;
  quantity: number;
  /** A variation's line: the store id of the product it is a variation of. */
  parentShopProductId?: number | null;
}

/** A buyer's details on an order, as the store has them. */
export interface StoreBuyer {
  firstName: string | null;
  lastName: string | null;
  email: string | null;
  organizationName: string | null;
  phone: string | null;
  address: string | null;
  postalCode: string | null;
  city: string | null;
  country: string | null;
}

export interface StoreOrder extends StoreBuyer {
  shopOrderId: number;
  shopOrderNumber: string;
  status: StoreOrderStatus;
  totalAmount: number; // cents
  currency: string;
  /** Our order id, on a store order the service made itself (a renewal order). */
  serviceOrderId: string | null;
  /** Store product ids (a variation's own id) and quantities, in the order's own order. */
  lines: StoreOrderLine[];
  /** When the store last changed it (`YYYY-MM-DD HH:MM:SS`, GMT); absent when the store does not say. */
  modifiedAt?: string | null;
}

export interface StoreProduct {
  shopProductId: number;
  type: 'once' | 'subscription' | 'shipping_costs';
  name: string;
  amount: number; // cents
  interval: IntervalUnit | null;
  intervalValue: number | null;
  times: number | null;
  deleted: boolean;
  /** When the store last changed it (`YYYY-MM-DD HH:MM:SS`, GMT); absent when the store does not say. */
  modifiedAt?: string | null;
  /** A variation: the store id of the product it is a variation of (its variable product). */
  parentShopProductId?: number | null;
  /**
   * Set on a variable product: it is sold as its variations (products of their own, with
   * parentShopProductId) and is no product here itself. The ids of the variations it has now: one
   * stored here and no longer among them was deleted in the store.
   */
  variationIds?: number[];
}

export type StoreRecordKind = 'products' | 'orders';
export interface StoreRecords {
  products: StoreProduct;
  orders: StoreOrder;
}

/** A store order as the service made or found it: what it records of it. */
export interface StoreOrderRef {
  shopOrderId: number;
  shopOrderNumber: string;
}

/** A parcel's tracking, as the store's shipping extension has it. */
export interface Tracking {
  carrier: string | null;
  tracktrace: string;
}

/** What the store is told of one of our payments of its order (in its notes and fields). */
export interface PaymentForStore {
  id: string;
  /** The provider's display name, as the merchant knows it from its dashboard. */
  providerName: string;
  providerPaymentId: string | null;
  status: string;
  failureReason: string | null;
  currency: string;
  amount: number; // cents
}

/** A subscription's charge as an order to make in the store, child of the order the subscription came from. */
export interface RenewalOrder {
  /** Our order id: kept on the store's order, so an attempt after a lost answer finds it instead of making another. */
  serviceOrderId: string;
  parentShopOrderId: number;
  currency: string;
  buyer: StoreBuyer;
  lines: StoreOrderLine[];
  payment: PaymentForStore;
}

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
  /**
   * Store product ids (the variation bought, when the line has one) and quantities, in the order's
   * own order, with what the buyer paid for each line before one-time coupons.
   */
  lines: StoreOrderLine[];
  /** The gateway the buyer paid with, as the store names it (id and title); null when it does not say. */
  paymentMethod: string | null;
  paymentMethodTitle: string | null;
  /** The order's shipping, which recurs on renewals of what is shipped. */
  shippingLines: StoreShippingLine[];
  /** What the store invoiced (items, shipping, fees) with its own tax, for an invoice of the order; empty when it says nothing. */
  invoiceLines: StoreInvoiceLine[];
  /** When the store made it (`YYYY-MM-DD HH:MM:SS`, GMT); absent when the store does not say. */
  createdAt?: string | null;
  /** When the store last changed it (`YYYY-MM-DD HH:MM:SS`, GMT); absent when the store does not say. */
  modifiedAt?: string | null;
}

/** A line of a store order: the product bought, a variation's own id when one was chosen. */
export interface StoreOrderLine {
  shopProductId: number;
  quantity: number;
  /** A variation's line: the store id of the product it is a variation of. */
  parentShopProductId?: number | null;
  /** The line's price with tax before one-time coupons, in cents (the store's subtotal + subtotal tax); null when it does not say. */
  amount: number | null;
  /** The store's subtotal without tax (its own decimal text), given back on a renewal order; null when it does not say. */
  subtotal: string | null;
  /** WooCommerce Subscriptions' subscription that holds the line (the plugin says so at checkout); null or absent: none. */
  shopSubscriptionId?: number | null;
  /** The VAT percentage the store taxed the line at (as StoreInvoiceLine's); null: none, or not named; absent: not read. */
  vatRate?: string | null;
}

/** A line as the store invoiced it: an item after discounts, shipping or a fee, with the tax the store computed. */
export interface StoreInvoiceLine {
  description: string;
  quantity: number;
  /** Cents without tax. */
  totalExcludingTax: number;
  /** Cents of tax on the line. */
  tax: number;
  /** The VAT percentage the store applied (`21`, `9`); null when it applied none, or did not say which (tax without a rate). */
  vatRate: string | null;
}

export interface StoreShippingLine {
  methodId: string;
  methodTitle: string;
  /** The store's total without tax, as its decimal text. */
  total: string;
  /** With tax, in cents. */
  amount: number;
  /** The VAT percentage the store taxed it at (as StoreInvoiceLine's); null: none, or not named; absent: not read. */
  vatRate?: string | null;
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
  /** Whether it is shipped (not virtual): an order's shipping recurs only with what ships. Absent when the store does not say. */
  shipped?: boolean | null;
  /** A subscription's free trial in days before its first charge (the plugin's `_rps_trial_days`); absent: none. */
  trialDays?: number | null;
  /** A subscription's sign-up fee in cents, charged once at the checkout (`_rps_signup_fee`); absent: none. */
  signupFee?: number | null;
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
  /** When the store made it (`YYYY-MM-DD HH:MM:SS`, GMT): the order's creation time here too. */
  createdAt?: string | null;
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
  paymentMethod: string | null;
  paymentMethodTitle: string | null;
  /** The first order's lines: the store adds its tax to their subtotals, as it did on the first order. */
  lines: Array<Pick<StoreOrderLine, 'shopProductId' | 'quantity' | 'parentShopProductId' | 'subtotal'>>;
  shippingLines: StoreShippingLine[];
  payment: PaymentForStore;
  /** The subscription this charge is of: kept on the store's order (`_rps_subscription_id`), so the plugin lists its orders. */
  subscriptionId: string | null;
  /**
   * WooCommerce Subscriptions' subscription the charge renews, when the extension sold it: the order
   * is linked to it as its renewal (`_subscription_renewal`), with the service's next charge date.
   */
  shopSubscription?: { id: number; nextPaymentAt: string | null } | null;
}

/**
 * A subscription as a store's subscriptions extension keeps it (WooCommerce Subscriptions), read to be
 * taken over: what it bills, when, through which gateway, and the provider's customer and mandate the
 * gateway charges (null when the store keeps none). Times `YYYY-MM-DD HH:MM:SS`, GMT.
 */
export interface StoreSubscription {
  shopSubscriptionId: number;
  /** The extension's status; `other` for one we do not know (kept in `shopStatus`). */
  status: StoreSubscriptionStatus;
  shopStatus: string;
  interval: IntervalUnit;
  intervalCount: number;
  /** The next charge; null when none is scheduled (ended, or a manual subscription without one). */
  nextPaymentAt: string | null;
  /** The last payment the store recorded (parent or renewal); null or absent when it says none. */
  lastPaymentAt?: string | null;
  /** When it ends by itself; null: until cancelled. */
  endAt: string | null;
  startAt: string | null;
  /** What each period costs, tax included, in cents; and the tax in it. */
  amountCents: number;
  taxCents: number;
  currency: string;
  customer: StoreSubscriber;
  lines: StoreSubscriptionLine[];
  /** The gateway that charges it, as the store names it (id); null when none. */
  paymentMethod: string | null;
  /** The payment provider behind that gateway (`mollie`), null when the gateway is another one. */
  provider: string | null;
  /** The customer renews by paying each renewal order themselves: nothing to take over. */
  requiresManualRenewal: boolean;
  providerCustomerId: string | null;
  providerMandateId: string | null;
  /** Paid periods so far, when the store says (it does not in the subscription itself). */
  completedPayments?: number | null;
  /** The order it was bought with (WooCommerce Subscriptions' parent order); null when it has none. */
  parentShopOrderId?: number | null;
  /** The service's subscription that bills it, as kept on it (the hand-over writes it); null or absent: none. */
  serviceSubscriptionId?: string | null;
}

/**
 * An order of a store's subscription (`GET /subscriptions/{id}/orders`): how it relates to it (the
 * order it was bought with, a renewal, a switch), the order, and the provider's customer and mandate
 * kept on it (Mollie's plugin keeps the mandate on the parent order; null when none).
 */
export interface StoreSubscriptionOrder {
  relation: 'parent' | 'renewal' | 'switch' | 'other';
  order: StoreOrder;
  /** The store's own status of the order (`pending`, `on-hold`, `failed`, …), where ours maps several to one. */
  shopStatus?: string;
  providerCustomerId: string | null;
  providerMandateId: string | null;
}

export type StoreSubscriptionStatus = 'pending' | 'active' | 'on_hold' | 'pending_cancel' | 'cancelled' | 'expired' | 'other';

/** The subscriber: the store's account (null: none) and the billing details. */
export interface StoreSubscriber {
  shopCustomerId: number | null;
  email: string | null;
  firstName: string | null;
  lastName: string | null;
  organizationName: string | null;
  country: string | null;
}

export interface StoreSubscriptionLine {
  shopProductId: number;
  /** The variation's id when a variation is subscribed to; null: none. */
  variationId: number | null;
  name: string;
  quantity: number;
  /** The line's total per period with its tax, in cents. */
  amount: number;
  /** The tax in it, in cents; absent when the store did not say. */
  tax?: number;
}

/** A page of a store's subscriptions: those it answered in a shape we cannot use fail alone, named. */
export interface StoreSubscriptionPage {
  page: number;
  totalPages: number;
  total: number | null;
  subscriptions: StoreSubscription[];
  rejected: Array<{ id: unknown; error: string }>;
}

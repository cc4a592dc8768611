import type { Account } from '../accounts/account';
import type { OrderRow } from '../orders/repository';
import type { PaymentRow } from './repository';

/** What a checkout payment is made for: the order here, and whether it must leave a mandate. */
export interface CheckoutOrder {
  order: OrderRow;
  subscription: boolean;
  /**
   * Cents the provider is asked: the order's total, or for an order with subscriptions whose total is 0.00 (a free trial)
   * the provider's smallest first payment, which a mandate needs.
   */
  chargeAmount: number;
  /** The order's open payment that this request asks for again (same payer, method and amount): answered instead of a new one. */
  inProgress: PaymentRow | null;
}

/** What the new checkout payment would be, to tell whether an open payment of the order is the same one. */
export interface CheckoutRequest {
  customerId: string;
  /** null: the payer chooses at the provider, so any open payment of the order will do. */
  method: string | null;
}

/** A payment request's `shop_order_id` and what it asks: checked against the store's order. */
export interface OrderCheckoutRequest extends CheckoutRequest {
  shopOrderId: number;
  amount: number; // cents
  currency: string;
}

export type OrderCheckoutResolver = (account: Account, request: OrderCheckoutRequest) => Promise<CheckoutOrder>;

/**
 * Where a payment for a store order (`shop_order_id`) finds its order: the store module registers
 * the resolver at start, as features register settlement hooks, so payments never reach into it.
 */
export class OrderCheckouts {
  private resolver: OrderCheckoutResolver | null = null;

  resolveWith(resolver: OrderCheckoutResolver): void {
    if (this.resolver) throw new Error('a resolver of store order checkouts is registered already');
    this.resolver = resolver;
  }

  resolve(account: Account, request: OrderCheckoutRequest): Promise<CheckoutOrder> {
    if (!this.resolver) throw new Error('no resolver of store order checkouts is registered');
    return this.resolver(account, request);
  }
}

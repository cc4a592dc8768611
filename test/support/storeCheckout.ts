import type request from 'supertest';
import type { TestApp } from './testApp';
import type { WooSimulator } from '../../fakes/woocommerce/simulator';

/** A pending store order of two bags of coffee beans (15.00), as the checkout leaves it: not synced here yet. */
export function pendingStoreOrder(store: WooSimulator): number {
  const [productId] = store.addProducts(1, () => ({ name: 'Coffee beans', price: '7.50', regular_price: '7.50' }));
  return store.addOrders(1, () => ({
    status: 'pending',
    total: '15.00',
    line_items: [{ id: 1, product_id: productId, quantity: 2, total: '15.00' }],
  }))[0] as number;
}

/** The plugin's payment request for that order: its total, back to the order-received page. */
export function payStoreOrder(
  t: TestApp,
  token: string,
  providerCustomerId: string,
  shopOrderId: number,
  extra: Record<string, unknown> = {},
): request.Test {
  return t.as(token).post('/api/v2/payments', {
    amount: 15,
    currency: 'EUR',
    provider_customer_id: providerCustomerId,
    description: `Order ${shopOrderId}`,
    redirect_url: 'https://shop.example/checkout/order-received',
    shop_order_id: shopOrderId,
    ...extra,
  });
}

import supertest from 'supertest';
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

/**
 * What a buyer does at the checkout for a store order with subscription products: a customer, the
 * plugin's payment for the order's `total`, paid on the sandbox's hosted page; settled here after.
 */
export async function paidStoreOrder(t: TestApp, token: string, shopOrderId: number, total: string): Promise<void> {
  const customer = (await t.as(token).post('/api/v2/customers', { first_name: 'Anna', last_name: 'de Vries', email: 'anna@example.nl' }))
    .body;
  const payment = await t.as(token).post('/api/v2/payments', {
    amount: Number(total),
    currency: 'EUR',
    provider_customer_id: customer.provider_customer_id,
    description: 'Coffee club',
    redirect_url: 'https://shop.example/checkout/order-received',
    shop_order_id: shopOrderId,
  });
  if (payment.status !== 201) throw new Error(`the store order's payment answered ${payment.status}: ${JSON.stringify(payment.body)}`);
  await payInSandbox(t, payment.body.provider_payment_id);
}

/** The buyer chooses "paid" on the sandbox's hosted checkout; what follows from it is settled here. */
export async function payInSandbox(t: TestApp, providerPaymentId: string): Promise<void> {
  const res = await supertest(t.app).post(`/sandbox/checkout/${providerPaymentId}`).type('form').send({ status: 'paid' });
  if (res.status !== 303) throw new Error(`the sandbox checkout answered ${res.status}`);
  await t.ctx.background.idle();
}

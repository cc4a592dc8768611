import { existsSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { CHROMIUM, DOCROOT, PLUGIN_ZIP, REALSTORE, SERVICE_URL, STORE_URL, hasRealStore } from './harness/config';
import {
  BUYER,
  adminPage,
  buyerWithCart,
  customerPage,
  finishOnSandbox,
  launchChromium,
  openBlockCheckout,
  orderIdOf,
  placeBlockOrder,
  placeClassicOrder,
} from './harness/browser';
import { runQueue, setUpStore, storeQuery, untilDelivered, useCheckout, wc, wcOk, wpEval } from './harness/realStore';
import {
  accountRef,
  api,
  cli,
  cliAsync,
  providerCallsForPendingCharges,
  providerPayment,
  suiteState,
  type ProviderCharge,
} from './harness/service';
import { serveOverHttps } from '../../fakes/mollie/https';
import { MollieFake } from '../../fakes/mollie/fake';

/**
 * The service and the plugin against the real WordPress 6.8.8 + WooCommerce 9.9.5 store at
 * REALSTORE (harness/config.ts), in the order a shop lives them: connected from the plugin's admin page, products
 * and orders arriving by the store's own webhooks (sent with run-queue.php, as WP-Cron would), buyers
 * paying in Chromium on the sandbox checkout, renewals billed through the CLI, then disconnected and
 * uninstalled. One store and one built service for all (harness/globalSetup.ts); later scenarios use
 * the connection the first makes. Without the store (a machine outside CI) or Chromium it is skipped.
 */
const runnable = hasRealStore() && existsSync(CHROMIUM);
if (!hasRealStore()) console.warn(`store suite skipped: no real store at ${REALSTORE} (CI has ../shared/realstore)`);
else if (!existsSync(CHROMIUM)) console.warn(`store suite skipped: ${CHROMIUM} is not installed (apt-get install chromium)`);
const describeWithStore = runnable ? describe : describe.skip;

interface WcProduct {
  id: number;
  name: string;
  date_modified_gmt: string;
  variations: number[];
}
interface WcOrder {
  id: number;
  status: string;
  total: string;
  total_tax: string;
  parent_id: number;
  transaction_id: string;
  payment_method: string;
  date_paid_gmt: string | null;
  line_items: Array<{
    product_id: number;
    variation_id: number;
    quantity: number;
    subtotal: string;
    subtotal_tax: string;
    total: string;
    total_tax: string;
    taxes: unknown[];
  }>;
  tax_lines: Array<{ rate_code: string; label: string; rate_percent: number; tax_total: string }>;
  meta_data: Array<{ key: string; value: unknown }>;
}
interface WcWebhook {
  id: number;
  topic: string;
  status: string;
  delivery_url: string;
}
interface Listed<T> {
  data: T[];
}
interface ServiceProduct {
  id: string;
  name: string;
  type: string;
  amount: string;
  interval: string | null;
  shop_product_id: number | null;
}
interface ServiceOrder {
  id: string;
  status: string;
  total_amount: string;
  shop_order_id: number | null;
  subscription: string | null;
}

/** Every item of a list of the service, page after page. */
async function listAll<T>(route: string): Promise<T[]> {
  const items: T[] = [];
  for (let page = 1; ; page += 1) {
    const res = await api<Listed<T> & { meta: { last_page: number } }>(
      'GET',
      `${route}${route.includes('?') ? '&' : '?'}per_page=100&page=${page}`,
    );
    expect(res.status).toBe(200);
    items.push(...res.body.data);
    if (page >= res.body.meta.last_page) return items;
  }
}

const productsByShopId = async (): Promise<Map<number, ServiceProduct>> =>
  new Map((await listAll<ServiceProduct>('/api/v2/products')).map((product) => [Number(product.shop_product_id), product]));
const serviceOrderOf = async (shopOrderId: number): Promise<ServiceOrder | undefined> =>
  (await listAll<ServiceOrder>('/api/v2/orders')).find((order) => order.shop_order_id === shopOrderId);
const ourWebhooks = async (): Promise<WcWebhook[]> =>
  (await wcOk<WcWebhook[]>('GET', 'webhooks?per_page=100')).filter((hook) => hook.delivery_url.startsWith(SERVICE_URL));

/** Clicks a button of the plugin's admin page and returns what its status line says once it changed. */
async function statusAfterClick(page: Page, button: string): Promise<string> {
  const status = page.locator('#rps-connection-result');
  const before = (await status.textContent()) ?? '';
  await page.getByRole('button', { name: button, exact: true }).click();
  // Evaluated in the page (a string: this file is not compiled with the DOM's types).
  const changed =
    "(() => { const text = document.querySelector('#rps-connection-result').textContent; " +
    `return text !== '' && text !== ${JSON.stringify(before)}; })()`;
  await page.waitForFunction(changed, undefined, { timeout: 30_000 });
  return (await status.textContent()) ?? '';
}

/** The REST keys the plugin made for the service (its description), as the store's database has them. */
const pluginKeys = () => storeQuery("SELECT key_id FROM wp_woocommerce_api_keys WHERE description = 'Recurring payments service'");

/** The store order is paid (by the service's write-back or the plugin's callback) and the service has it paid, for this total. */
async function expectPaid(shopOrderId: number, total: string): Promise<ServiceOrder> {
  const inStore = await untilDelivered(async () => {
    const order = await wcOk<WcOrder>('GET', `orders/${shopOrderId}`);
    expect(order.status).toBe('processing');
    return order;
  });
  expect(inStore).toMatchObject({
    total,
    payment_method: 'rps',
    transaction_id: expect.stringMatching(/^tr_/),
    date_paid_gmt: expect.any(String),
  });
  const here = await untilDelivered(async () => {
    const order = await serviceOrderOf(shopOrderId);
    expect(order).toMatchObject({ status: 'paid', total_amount: total });
    return order as ServiceOrder;
  });
  return here;
}

/**
 * "Publish" in the classic post editor. Leaving the title starts an autosave, and while it runs the editor
 * greys out its buttons and ignores a click on them: a click that led nowhere is made again once they are back.
 */
async function publishInEditor(page: Page): Promise<void> {
  for (let attempt = 1; ; attempt += 1) {
    await page.locator('#publish:not(.disabled)').waitFor();
    try {
      await Promise.all([page.waitForURL(/post\.php\?post=\d+&action=edit/, { timeout: 10_000 }), page.click('#publish')]);
      return;
    } catch (error) {
      if (attempt === 3) throw error;
    }
  }
}

/** The order-confirmation block's heading and text (the store's block theme shows it on the order-received page). */
async function orderStatusShown(page: Page): Promise<{ heading: string; text: string }> {
  const status = page.locator('.wc-block-order-confirmation-status');
  return { heading: (await status.locator('h1').textContent()) ?? '', text: (await status.locator('p').first().textContent()) ?? '' };
}
const THANK_YOU = { heading: 'Order received', text: 'Thank you. Your order has been received.' };

/** Today in the service's time zone (APP_TIMEZONE of the suite's service), and dates from it, as the API writes them. */
const today = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Amsterdam' }).format(new Date());
const daysAfter = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
/** The same day `months` later, clamped to the month's last day (as the service's monthly schedule). */
function monthsAfter(date: string, months: number): string {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const last = new Date(Date.UTC(year, month - 1 + months + 1, 0)).getUTCDate();
  return new Date(Date.UTC(year, month - 1 + months, Math.min(day, last))).toISOString().slice(0, 10);
}

let unique = 0;
const email = (who: string) => `${who}.${Date.now()}.${(unique += 1)}@example.nl`;

describeWithStore('the service and the plugin with the real WooCommerce store', () => {
  let browser: Browser;
  let admin: Page;

  beforeAll(async () => {
    browser = await launchChromium();
    admin = await adminPage(browser);
    // wp-admin's confirmations (disconnecting, deleting the plugin): the shop owner says OK.
    admin.on('dialog', (dialog) => void dialog.accept());
  });
  afterAll(async () => {
    await browser?.close();
  });
  // Every scenario ends with the ledger audit of the store's service (cli audit): any broken invariant fails it.
  afterEach(async () => {
    await cliAsync('audit');
  });

  it("When the shop owner connects the store from the plugin's admin page, then the service has it with six active webhooks", async () => {
    await admin.goto(`${STORE_URL}/wp-admin/admin.php?page=rps-recurring-payments`);
    await admin.fill('#rps-service-url', SERVICE_URL);
    const { token } = suiteState();
    await admin.fill('#rps-api-token', token);
    await Promise.all([admin.waitForURL(/page=rps-recurring-payments/), admin.getByRole('button', { name: 'Save' }).click()]);
    await expect(admin.locator('.notice p').first().textContent()).resolves.toBe('Settings saved.');
    await expect(statusAfterClick(admin, 'Test connection')).resolves.toBe('The service answered: address and token are right.');
    await expect(statusAfterClick(admin, 'Connect this store')).resolves.toBe(
      'Store connected; the service hears of every change at once.',
    );

    const shop = await api('GET', '/api/v2/shop');
    expect(shop).toMatchObject({
      status: 200,
      body: { platform: 'woocommerce', url: STORE_URL, status: 'connected', webhooks: { state: 'registered', error: null } },
    });
    const hooks = await ourWebhooks();
    expect(hooks.map((hook) => hook.topic).sort()).toEqual([
      'order.created',
      'order.deleted',
      'order.updated',
      'product.created',
      'product.deleted',
      'product.updated',
    ]);
    expect(hooks.every((hook) => hook.status === 'active')).toBe(true);

    // The payment method, switched on as WooCommerce → Settings → Payments does.
    await wcOk('PUT', 'payment_gateways/rps', { enabled: true });
  });
  it(
    'When three products are created in the store within one second, ' + 'then the service has all three from the webhooks, without a sync',
    async () => {
      // From the start of a second, so that the three are made (and their deliveries sent) within it.
      await new Promise((resolve) => setTimeout(resolve, 1000 - (Date.now() % 1000)));
      const created = await Promise.all(
        ['Espresso beans', 'Filter beans', 'Decaf beans'].map((name, i) =>
          wcOk<WcProduct & { date_created_gmt: string }>('POST', 'products', { name, regular_price: `1${i}.50`, virtual: true }),
        ),
      );
      expect(new Set(created.map((product) => product.date_created_gmt)).size).toBe(1);

      const here = await untilDelivered(async () => {
        const products = await productsByShopId();
        for (const product of created) expect(products.get(product.id)).toBeDefined();
        return products;
      });
      expect(created.map((product) => here.get(product.id))).toEqual([
        expect.objectContaining({ name: 'Espresso beans', type: 'once', amount: '10.50', shop_product_id: created[0]?.id }),
        expect.objectContaining({ name: 'Filter beans', type: 'once', amount: '11.50', shop_product_id: created[1]?.id }),
        expect.objectContaining({ name: 'Decaf beans', type: 'once', amount: '12.50', shop_product_id: created[2]?.id }),
      ]);
      expect((await api<Listed<unknown>>('GET', '/api/v2/sync/runs')).body.data).toEqual([]);
    },
  );

  describe('a webhook the store disabled', () => {
    let product: WcProduct;
    let hook: WcWebhook;

    beforeAll(async () => {
      product = await wcOk<WcProduct>('POST', 'products', { name: 'Tea sampler', regular_price: '7.50', virtual: true });
      await untilDelivered(async () => expect((await productsByShopId()).get(product.id)).toMatchObject({ amount: '7.50' }));
      hook = (await ourWebhooks()).find((candidate) => candidate.topic === 'product.updated') as WcWebhook;
      // What WooCommerce does after more than five failed deliveries in a row.
      await wcOk('PUT', `webhooks/${hook.id}`, { status: 'disabled' });
    });

    it("When the store disabled one of our webhooks, then the service's store connection shows it disabled", async () => {
      const shop = await api<{ webhooks: { in_store: Array<{ topic: string; id: number; status: string }> } }>('GET', '/api/v2/shop');
      expect(shop.status).toBe(200);
      expect(shop.body.webhooks).toMatchObject({ state: 'registered', last_checked_at: expect.any(String) });
      expect(shop.body.webhooks.in_store).toHaveLength(6);
      expect(shop.body.webhooks.in_store).toContainEqual({ topic: 'product.updated', id: hook.id, status: 'disabled' });
      expect(shop.body.webhooks.in_store.filter((one) => one.status !== 'active')).toHaveLength(1);
    });

    it('When the store-sync job runs, then the webhook is active again and its deliveries arrive again', async () => {
      expect(await wcOk<WcWebhook>('GET', `webhooks/${hook.id}`)).toMatchObject({ status: 'disabled' });
      cli('jobs', 'run', 'sync-stores');
      expect(await wcOk<WcWebhook>('GET', `webhooks/${hook.id}`)).toMatchObject({ status: 'active', delivery_url: hook.delivery_url });
      expect((await ourWebhooks()).every((candidate) => candidate.status === 'active')).toBe(true);
      expect((await api('GET', '/api/v2/shop')).body).toMatchObject({
        status: 'connected',
        webhooks: { state: 'registered', error: null },
      });

      await wcOk('PUT', `products/${product.id}`, { regular_price: '8.25' });
      await untilDelivered(async () => expect((await productsByShopId()).get(product.id)).toMatchObject({ amount: '8.25' }));
    });
  });

  it(
    'When a buyer pays at the classic checkout in Chromium, ' +
      'then the thank-you page shows, and the order is paid in the store and here',
    async () => {
      const product = await wcOk<WcProduct>('POST', 'products', { name: 'Coffee grinder', regular_price: '49.95' });
      const buyer = await buyerWithCart(browser, product.id);
      await placeClassicOrder(buyer, email('classic'));
      await finishOnSandbox(buyer, 'paid');
      const orderId = orderIdOf(buyer.url());
      expect(buyer.url()).toMatch(new RegExp(`^${STORE_URL}/checkout/order-received/${orderId}/\\?key=wc_order_`));
      await expect(orderStatusShown(buyer)).resolves.toEqual(THANK_YOU);
      await expectPaid(orderId, '54.90');
      await buyer.context().close();
    },
  );

  it(
    "When the shop owner refunds part of an order paid through the service with WooCommerce's refund, " +
      'then the service has the refund and the provider got one; one made in the service is recorded in the store too',
    async () => {
      const product = await wcOk<WcProduct>('POST', 'products', { name: 'Travel mug', regular_price: '18.00', virtual: true });
      const buyer = await buyerWithCart(browser, product.id);
      await placeClassicOrder(buyer, email('refund'));
      await finishOnSandbox(buyer, 'paid');
      const orderId = orderIdOf(buyer.url());
      await expectPaid(orderId, '18.00');
      await buyer.context().close();
      const order = await wcOk<{ meta_data: Array<{ key: string; value: unknown }> }>('GET', `orders/${orderId}`);
      const paymentId = String(order.meta_data.find((meta) => meta.key === '_rps_payment_id')?.value);

      // What "Refund € 5,00 via Recurring payments" on the order screen does: the gateway's process_refund.
      const refunded = await wc<{ id: number; amount: string }>('POST', `orders/${orderId}/refunds`, {
        amount: '5.00',
        reason: 'Dented lid',
        api_refund: true,
      });
      expect(refunded).toMatchObject({ status: 201, body: { amount: '5.00' } });
      const refunds = await api<{ data: Array<Record<string, unknown>> }>('GET', `/api/v2/payments/${paymentId}/refunds`);
      expect(refunds.body.data).toEqual([
        expect.objectContaining({
          payment_id: paymentId,
          amount: '5.00',
          description: 'Dented lid',
          status: 'pending',
          provider_refund_id: expect.stringMatching(/^re_/),
        }),
      ]);

      // Refunded in the service directly too: its refund.created callback records it in WooCommerce (once).
      expect((await api('POST', `/api/v2/payments/${paymentId}/refunds`, { amount: 10 })).status).toBe(201);
      const refundsInStore = async () =>
        (await wcOk<Array<{ amount: string }>>('GET', `orders/${orderId}/refunds`)).map((one) => one.amount).sort();
      await untilDelivered(async () => {
        cli('jobs', 'run', 'deliver-webhook-events');
        expect(await refundsInStore()).toEqual(['10.00', '5.00']);
      });
      // Both sides see 3.00 left: more is refused, and nothing more goes out.
      const tooMuch = await wc<{ message: string }>('POST', `orders/${orderId}/refunds`, { amount: '5.00', api_refund: true });
      expect(tooMuch.status).toBeGreaterThanOrEqual(400);
      expect((await api<{ data: unknown[] }>('GET', `/api/v2/payments/${paymentId}/refunds`)).body.data).toHaveLength(2);
      expect(await refundsInStore()).toEqual(['10.00', '5.00']);
    },
  );

  it(
    "When a refund's callback arrives between WooCommerce's save of the refund button's record and its call of the gateway, " +
      'then the refund is recorded in the store once, also when the button then fails',
    async () => {
      const product = await wcOk<WcProduct>('POST', 'products', { name: 'Tea strainer', regular_price: '18.00', virtual: true });
      const buyer = await buyerWithCart(browser, product.id);
      await placeClassicOrder(buyer, email('window'));
      await finishOnSandbox(buyer, 'paid');
      const orderId = orderIdOf(buyer.url());
      await expectPaid(orderId, '18.00');
      await buyer.context().close();
      const order = await wcOk<{ meta_data: Array<{ key: string; value: unknown }> }>('GET', `orders/${orderId}`);
      const paymentId = String(order.meta_data.find((meta) => meta.key === '_rps_payment_id')?.value);
      // wc_create_refund (9.9.5) saves its refund record with the amount, then calls the gateway. In between, this must-use plugin has the
      // whole 18.00 refunded in the service directly (as from the provider's dashboard) and waits until the store has
      // answered that refund's callback: the callback runs while the button's record exists and its refund is not made.
      const muPlugin = path.join(DOCROOT, 'wp-content/mu-plugins/rps-suite-refund-window.php');
      writeFileSync(
        muPlugin,
        `<?php
add_action( 'woocommerce_api_rps_payment', static function () {
	add_action( 'shutdown', static function () {
		if ( get_option( 'rps_suite_window_open' ) ) {
			update_option( 'rps_suite_window_callback', (string) http_response_code(), false );
		}
	} );
}, 1 );
add_action( 'woocommerce_after_order_refund_object_save', static function ( $refund ) {
	global $wpdb;
	// The save that gives the record its amount: update_taxes() saved it once before, with a total of 0.
	if ( ${orderId} !== (int) $refund->get_parent_id() || 0 <= (float) $refund->get_total() || get_option( 'rps_suite_window_open' ) ) {
		return;
	}
	update_option( 'rps_suite_window_open', '1', false );
	$made = wp_remote_post( ${JSON.stringify(`${SERVICE_URL}/api/v2/payments/${paymentId}/refunds`)}, array(
		'headers' => array( 'Authorization' => 'Bearer ${suiteState().token}', 'Content-Type' => 'application/json' ),
		'body'    => '{"amount":18}',
		'timeout' => 30,
	) );
	update_option( 'rps_suite_window_refund', (string) wp_remote_retrieve_response_code( $made ), false );
	for ( $waited = 0; $waited < 300; $waited++ ) {
		if ( null !== $wpdb->get_var( "SELECT option_value FROM {$wpdb->options} WHERE option_name = 'rps_suite_window_callback'" ) ) {
			return;
		}
		usleep( 100000 );
	}
} );
`,
      );
      const refundsInStore = async () =>
        (await wcOk<Array<{ amount: string }>>('GET', `orders/${orderId}/refunds`)).map((one) => one.amount).sort();
      try {
        const pressed = await wc<{ message: string }>('POST', `orders/${orderId}/refunds`, {
          amount: '18.00',
          reason: 'Bent handle',
          api_refund: true,
        });
        const window = wpEval(
          "echo get_option( 'rps_suite_window_refund' ), ' ', get_option( 'rps_suite_window_callback' ); " +
            "foreach ( array( 'open', 'refund', 'callback' ) as $one ) { delete_option( 'rps_suite_window_' . $one ); }",
        );
        // The service refunded the 18.00 in the window and its callback was answered there; the button's own 18.00 is refused.
        expect(window).toMatch(/^201 \d{3}$/);
        expect(pressed.status).toBeGreaterThanOrEqual(400);
        expect(pressed.body.message).toContain('The refund was refused');
        // WooCommerce deleted the button's record: the service's refund is recorded (the callback came again), once.
        await untilDelivered(async () => {
          cli('jobs', 'run', 'deliver-webhook-events');
          expect(await refundsInStore()).toEqual(['18.00']);
        }, 120_000);
        const refunds = await api<{ data: Array<{ amount: string; status: string }> }>('GET', `/api/v2/payments/${paymentId}/refunds`);
        expect(refunds.body.data).toEqual([expect.objectContaining({ amount: '18.00' })]);
        expect(await refundsInStore()).toEqual(['18.00']);
      } finally {
        rmSync(muPlugin, { force: true });
      }
    },
    240_000,
  );

  it(
    "When a buyer's first payment fails and the second is paid, " + 'then the buyer lands on the thank-you page, not "order failed"',
    async () => {
      const product = await wcOk<WcProduct>('POST', 'products', { name: 'Milk frother', regular_price: '24.95', virtual: true });
      const buyer = await buyerWithCart(browser, product.id);
      await placeClassicOrder(buyer, email('retry'));
      await finishOnSandbox(buyer, 'failed');
      const orderId = orderIdOf(buyer.url());
      // The plugin's callback (the service's event, sent by its deliver-webhook-events job) marks the order failed.
      await untilDelivered(async () => {
        cli('jobs', 'run', 'deliver-webhook-events');
        expect((await wcOk<WcOrder>('GET', `orders/${orderId}`)).status).toBe('failed');
      });
      await buyer.reload();
      await expect(orderStatusShown(buyer)).resolves.toEqual({
        heading: 'Order failed',
        text:
          'Your order cannot be processed as the originating bank/merchant has declined your transaction. ' +
          'Please attempt your purchase again.',
      });

      // "Try again": the order-pay page, our method again, then paid.
      await Promise.all([buyer.waitForURL(/\/order-pay\//), buyer.getByRole('link', { name: 'Try again' }).click()]);
      await buyer.check('#payment_method_rps');
      await buyer.locator('#rps-methods input[value=ideal]').check();
      await Promise.all([buyer.waitForURL(/\/sandbox\/checkout\/tr_/, { timeout: 60_000 }), buyer.click('#place_order')]);
      await finishOnSandbox(buyer, 'paid');
      expect(buyer.url()).toMatch(new RegExp(`^${STORE_URL}/checkout/order-received/${orderId}/`));
      // What the buyer sees at once, on landing: not "Order failed" from the attempt before.
      await expect(orderStatusShown(buyer)).resolves.toEqual(THANK_YOU);
      await expectPaid(orderId, '24.95');
      await buyer.context().close();
    },
  );

  it('When the store has a variable product, then each variation is a product here and a buyer pays for one in Chromium', async () => {
    const parent = await wcOk<WcProduct>('POST', 'products', {
      name: 'Coffee mug',
      type: 'variable',
      attributes: [{ name: 'Size', options: ['Small', 'Large'], variation: true, visible: true }],
    });
    const small = await wcOk<WcProduct>('POST', `products/${parent.id}/variations`, {
      regular_price: '8.50',
      virtual: true,
      attributes: [{ name: 'Size', option: 'Small' }],
    });
    const large = await wcOk<WcProduct>('POST', `products/${parent.id}/variations`, {
      regular_price: '12.50',
      virtual: true,
      attributes: [{ name: 'Size', option: 'Large' }],
    });
    const here = await untilDelivered(async () => {
      const products = await productsByShopId();
      expect(products.get(small.id)).toBeDefined();
      expect(products.get(large.id)).toBeDefined();
      return products;
    });
    expect(here.get(small.id)).toMatchObject({ name: 'Coffee mug — Small', type: 'once', amount: '8.50', shop_product_id: small.id });
    expect(here.get(large.id)).toMatchObject({ name: 'Coffee mug — Large', type: 'once', amount: '12.50', shop_product_id: large.id });

    const buyer = await (await browser.newContext()).newPage();
    await buyer.goto(`${STORE_URL}/?add-to-cart=${parent.id}&variation_id=${large.id}&attribute_size=Large`);
    await placeClassicOrder(buyer, email('variation'));
    await finishOnSandbox(buyer, 'paid');
    const orderId = orderIdOf(buyer.url());
    expect((await wcOk<WcOrder>('GET', `orders/${orderId}`)).line_items).toEqual([
      expect.objectContaining({ product_id: parent.id, variation_id: large.id, quantity: 1, total: '12.50' }),
    ]);
    const order = await expectPaid(orderId, '12.50');
    const detail = await api<{ products: Array<{ quantity: number; product: ServiceProduct }> }>('GET', `/api/v2/orders/${order.id}`);
    expect(detail.body.products).toEqual([
      expect.objectContaining({ quantity: 1, product: expect.objectContaining({ id: here.get(large.id)?.id, shop_product_id: large.id }) }),
    ]);
    await buyer.context().close();
  });

  describe('with the Checkout block', () => {
    beforeAll(() => useCheckout('block'));
    afterAll(() => useCheckout('classic'));

    it(
      'When a buyer opens the Checkout block, ' + 'then its checkout-draft order is not listed here, also after a full order sync',
      async () => {
        const product = await wcOk<WcProduct>('POST', 'products', { name: 'Cold brew kit', regular_price: '19.95', virtual: true });
        const buyer = await buyerWithCart(browser, product.id);
        await openBlockCheckout(buyer);
        const drafts = await wcOk<WcOrder[]>('GET', 'orders?status=checkout-draft&per_page=100');
        const draft = drafts.find((order) => order.line_items.some((line) => line.product_id === product.id)) as WcOrder;
        expect(draft).toMatchObject({ status: 'checkout-draft', total: '19.95' });
        runQueue();
        runQueue();
        expect(await serviceOrderOf(draft.id)).toBeUndefined();

        const run = await api<{ id: string }>('POST', '/api/v2/sync/orders', { full: true });
        expect(run.status).toBe(202);
        await untilDelivered(async () =>
          expect((await api<{ status: string }>('GET', `/api/v2/sync/runs/${run.body.id}`)).body.status).toBe('succeeded'),
        );
        expect(await serviceOrderOf(draft.id)).toBeUndefined();
        await buyer.context().close();
      },
    );

    it(
      'When a buyer pays at the Checkout block in Chromium, ' +
        'then the thank-you page shows, and the order is paid in the store and here',
      async () => {
        const product = await wcOk<WcProduct>('POST', 'products', { name: 'Pour-over kettle', regular_price: '39.95' });
        const buyer = await buyerWithCart(browser, product.id);
        await openBlockCheckout(buyer);
        await placeBlockOrder(buyer, email('block'));
        await finishOnSandbox(buyer, 'paid');
        const orderId = orderIdOf(buyer.url());
        expect(buyer.url()).toMatch(new RegExp(`^${STORE_URL}/checkout/order-received/${orderId}/\\?key=wc_order_`));
        await expect(orderStatusShown(buyer)).resolves.toEqual(THANK_YOU);
        await expectPaid(orderId, '44.90');
        await buyer.context().close();
      },
    );
  });

  describe('with taxes on (NL 21 %, prices entered without tax) and a monthly subscription product', () => {
    let product: WcProduct;
    let firstOrderId: number;
    let subscriptionId: string;
    let renewal: WcOrder;
    /** "Coffee of the month", made recurring in the product editor. */
    let monthlyProductId: number;

    beforeAll(async () => {
      await wcOk('PUT', 'settings/general/woocommerce_calc_taxes', { value: 'yes' });
      await wcOk('PUT', 'settings/tax/woocommerce_prices_include_tax', { value: 'no' });
      await wcOk('POST', 'taxes', { country: 'NL', rate: '21.0000', name: 'BTW', class: 'standard' });
      product = await wcOk<WcProduct>('POST', 'products', {
        name: 'Coffee club',
        regular_price: '10.00',
        virtual: true,
        meta_data: [
          { key: '_subscription_price', value: '10.00' },
          { key: '_subscription_period', value: 'month' },
          { key: '_subscription_period_interval', value: '1' },
          { key: '_subscription_length', value: '0' },
        ],
      });
      await untilDelivered(async () => expect((await productsByShopId()).get(product.id)).toMatchObject({ type: 'subscription' }));
    });

    /** A buyer subscribes at the classic checkout and pays: the store order and the Subscription it started. */
    async function subscribe(who: string): Promise<{ orderId: number; subscription: string }> {
      const buyer = await buyerWithCart(browser, product.id);
      await placeClassicOrder(buyer, email(who));
      await finishOnSandbox(buyer, 'paid');
      const orderId = orderIdOf(buyer.url());
      await buyer.context().close();
      const order = await expectPaid(orderId, '12.10');
      expect(order.subscription).toEqual(expect.any(String));
      return { orderId, subscription: order.subscription as string };
    }

    it("When a subscription's renewal is charged, then it is charged with VAT, as the buyer paid at the checkout", async () => {
      ({ orderId: firstOrderId, subscription: subscriptionId } = await subscribe('vat'));
      const first = await wcOk<WcOrder>('GET', `orders/${firstOrderId}`);
      expect(first).toMatchObject({ total: '12.10', total_tax: '2.10' });

      const subscription = await api<{ status: string; next_payment_at: string }>('GET', `/api/v2/subscriptions/${subscriptionId}`);
      expect(subscription.body.status).toBe('active');
      // The billing run of the renewal's day (ahead of today: --force), then the provider's webhook for the charge.
      expect(cli('billing', 'run', '--date', subscription.body.next_payment_at.slice(0, 10), '--force')).toContain('1 charged');
      const charged = await providerCallsForPendingCharges();
      expect(charged).toHaveLength(1);
      cli('jobs', 'run', 'process-provider-webhooks');
      cli('jobs', 'run', 'write-back-to-stores');
      // What the provider was asked to charge: the price with its 21 % VAT, as at the checkout.
      expect(charged).toEqual([expect.objectContaining({ amount: 1210, currency: 'EUR' })]);
    });

    it('When a renewal is paid, then the store gets a renewal order with its line, the VAT and our payment method', async () => {
      const children = await untilDelivered(async () => {
        const found = await wcOk<WcOrder[]>('GET', `orders?parent=${firstOrderId}`);
        expect(found).toHaveLength(1);
        return found;
      });
      renewal = children[0] as WcOrder;
      expect(renewal).toMatchObject({
        parent_id: firstOrderId,
        status: 'processing',
        total: '12.10',
        total_tax: '2.10',
        payment_method: 'rps',
        transaction_id: expect.stringMatching(/^tr_/),
        date_paid_gmt: expect.any(String),
      });
      expect(renewal.line_items).toEqual([
        expect.objectContaining({ product_id: product.id, quantity: 1, subtotal: '10.00', total: '10.00', total_tax: '2.10' }),
      ]);
      expect(renewal.tax_lines).toEqual([expect.objectContaining({ label: 'BTW', rate_percent: 21, tax_total: '2.10' })]);
      const here = await serviceOrderOf(renewal.id);
      expect(here).toMatchObject({ status: 'paid', total_amount: '12.10', subscription: subscriptionId });
    });

    it('When the account invoices store orders, then a paid order is invoiced with the line and VAT the store computed', async () => {
      cli('accounts', 'set-invoicing', '--account', 'Realstore suite', '--orders', 'on');
      try {
        const kettle = await wcOk<WcProduct>('POST', 'products', { name: 'Kettle', regular_price: '40.00', virtual: true });
        const buyer = await buyerWithCart(browser, kettle.id);
        await placeClassicOrder(buyer, email('invoiced'));
        await finishOnSandbox(buyer, 'paid');
        const orderId = orderIdOf(buyer.url());
        await buyer.context().close();
        const order = await expectPaid(orderId, '48.40');
        const invoices = await api<{ data: Array<{ id: string; order_id: string | null }> }>('GET', '/api/v2/invoices?per_page=100');
        const invoice = invoices.body.data.find((one) => one.order_id === order.id);
        expect(invoice).toBeDefined();
        const body = (await api<Record<string, unknown>>('GET', `/api/v2/invoices/${invoice?.id}`)).body;
        expect(body).toMatchObject({
          status: 'issued',
          lines: [
            {
              quantity: 1,
              description: 'Kettle',
              amount: '40.00',
              vat: '21',
              total_excluding_vat: '40.00',
              total_vat: '8.40',
              total_including_vat: '48.40',
            },
          ],
          vat_totals: [{ vat: '21', total_excluding_vat: '40.00', total_vat: '8.40', total_including_vat: '48.40' }],
        });
      } finally {
        cli('accounts', 'set-invoicing', '--account', 'Realstore suite', '--orders', 'off');
      }
    });

    it("When the shop owner cancels a subscription's first order, then the subscription is cancelled here", async () => {
      const { orderId, subscription } = await subscribe('cancel');
      const before = await api<{ status: string; next_payment_at: string; cancel_at: string | null }>(
        'GET',
        `/api/v2/subscriptions/${subscription}`,
      );
      expect(before.body).toMatchObject({ status: 'active', cancel_at: null });
      await wcOk('PUT', `orders/${orderId}`, { status: 'cancelled' });
      await untilDelivered(async () => expect((await serviceOrderOf(orderId))?.status).toBe('cancelled'));
      // Cancelled at the end of the period paid for: it ends on the day it would have renewed, uncharged.
      const renewalDay = before.body.next_payment_at.slice(0, 10);
      expect((await api('GET', `/api/v2/subscriptions/${subscription}`)).body).toMatchObject({ status: 'active', cancel_at: renewalDay });
      expect(cli('billing', 'run', '--date', renewalDay, '--force')).toContain('0 charged');
      expect(await providerCallsForPendingCharges()).toEqual([]);
    });

    it(
      'When the shop owner makes a product recurring in the product editor (monthly, 3 payments, 20.00 excl. VAT), ' +
        'then the shop, the cart and the checkout say "€24.20 / month for 3 months" and the checkout offers only our gateway',
      async () => {
        // Prices shown with VAT, and a second gateway the recurring cart must not offer.
        await wcOk('PUT', 'settings/tax/woocommerce_tax_display_shop', { value: 'incl' });
        await wcOk('PUT', 'settings/tax/woocommerce_tax_display_cart', { value: 'incl' });
        await wcOk('PUT', 'payment_gateways/cod', { enabled: true });
        try {
          await admin.goto(`${STORE_URL}/wp-admin/post-new.php?post_type=product`);
          await admin.fill('#title', 'Coffee of the month');
          await admin.fill('#_regular_price', '20.00');
          // Nothing shipped (a voucher each month): what the buyer pays is the price with its VAT alone.
          await admin.check('#_virtual');
          await admin.check('#rps_recurring');
          await admin.fill('#rps_interval_count', '1');
          await admin.selectOption('#rps_interval', 'month');
          await admin.fill('#rps_length', '3');
          await publishInEditor(admin);
          const id = Number(/post=(\d+)/.exec(admin.url())?.[1]);
          monthlyProductId = id;
          const meta = (await wcOk<{ meta_data: Array<{ key: string; value: unknown }> }>('GET', `products/${id}`)).meta_data;
          expect(Object.fromEntries(meta.filter((m) => m.key.startsWith('_rps_')).map((m) => [m.key, m.value]))).toEqual({
            _rps_recurring: 'yes',
            _rps_interval: 'month',
            _rps_interval_count: '1',
            _rps_length: '3',
            _rps_trial_days: '0',
          });

          const buyer = await (await browser.newContext()).newPage();
          const priceText = async () =>
            (await buyer.locator('.rps-recurring-price').allInnerTexts()).map((text) => text.replace(/\s+/g, ' ').trim());
          await buyer.goto(`${STORE_URL}/?p=${id}`);
          expect(await priceText()).toContain('€24.20 / month for 3 months');
          await buyer.goto(`${STORE_URL}/?add-to-cart=${id}`);
          await buyer.goto(`${STORE_URL}/cart/`);
          expect(await priceText()).toContain('€24.20 (incl. VAT) / month for 3 months');
          await buyer.goto(`${STORE_URL}/checkout/`);
          await buyer.locator('#payment_method_rps').waitFor({ state: 'attached' });
          expect(await priceText()).toEqual(['€24.20 (incl. VAT) / month for 3 months']);
          const gateways = await buyer.locator('ul.wc_payment_methods input[name=payment_method]').all();
          expect(await Promise.all(gateways.map((input) => input.getAttribute('value')))).toEqual(['rps']);
          await buyer.context().close();
        } finally {
          await wcOk('PUT', 'payment_gateways/cod', { enabled: false });
          await wcOk('PUT', 'settings/tax/woocommerce_tax_display_shop', { value: 'excl' });
          await wcOk('PUT', 'settings/tax/woocommerce_tax_display_cart', { value: 'excl' });
        }
      },
    );

    describe('bought by a registered customer', () => {
      interface Subscription {
        id: string;
        name: string;
        status: string;
        start_date: string;
        next_payment_at: string | null;
        cancel_at: string | null;
        resume_at: string | null;
        rules: Array<{ amount: string; interval: string; interval_amount: number; times: number | null; times_done: number }>;
        customer: { id: string; email: string };
      }
      const password = `Pw-${Date.now()}-${Math.random().toString(36).slice(2)}`;
      let customer: { id: number; email: string; username: string };
      let shopper: Page;
      /** The subscriptions bought, each with its checkout order in the store. */
      interface Bought {
        orderId: number;
        subscription: Subscription;
      }
      let monthly: Bought;
      let variation: Bought;
      let trial: Bought;
      /** The subscriptions of the cart with two subscription products. */
      let mixed: Subscription[];
      let mixedOrderId: number;

      const subscriptionOf = async (id: string) => {
        const res = await api<Subscription>('GET', `/api/v2/subscriptions/${id}`);
        expect(res.status).toBe(200);
        return res.body;
      };
      /**
       * A billing run as of `date` (ahead of today: --force), the provider's webhooks and the write-back:
       * the charges it made for `subscription` (the run bills the block's other subscriptions too).
       */
      async function billAsOf(date: string, subscription: Subscription): Promise<ProviderCharge[]> {
        cli('billing', 'run', '--date', date, '--force');
        const charged = await providerCallsForPendingCharges();
        cli('jobs', 'run', 'process-provider-webhooks');
        cli('jobs', 'run', 'write-back-to-stores');
        return charged.filter((charge) => charge.description.startsWith(`${subscription.name} `));
      }
      /** The customer buys what is in their cart at the classic checkout and pays on the sandbox: the store order. */
      async function checkOut(addToCart: string): Promise<number> {
        await shopper.goto(`${STORE_URL}/?${addToCart}`);
        await placeClassicOrder(shopper, customer.email);
        await finishOnSandbox(shopper, 'paid');
        return orderIdOf(shopper.url());
      }
      /** The first payment: the store order paid for `total` in the customer's account, and the provider asked for it. */
      async function expectFirstPayment(orderId: number, total: string): Promise<Subscription> {
        const order = await expectPaid(orderId, total);
        const inStore = await wcOk<WcOrder & { customer_id: number }>('GET', `orders/${orderId}`);
        expect(inStore.customer_id).toBe(customer.id);
        expect(providerPayment(inStore.transaction_id)).toEqual({
          amount: Math.round(Number(total) * 100),
          currency: 'EUR',
          sequence_type: 'first',
        });
        expect(order.subscription).toEqual(expect.any(String));
        return subscriptionOf(order.subscription as string);
      }
      /** A renewal order of the store: paid with our method, in the customer's account, with its line and the 21 % VAT. */
      function expectRenewal(order: WcOrder & { customer_id: number }, productId: number, net: string, tax: string): void {
        const total = (Number(net) + Number(tax)).toFixed(2);
        expect(order).toMatchObject({ status: 'processing', customer_id: customer.id, total, total_tax: tax, payment_method: 'rps' });
        expect(order.line_items).toEqual([
          expect.objectContaining({ product_id: productId, quantity: 1, subtotal: net, total: net, total_tax: tax }),
        ]);
        expect(order.tax_lines).toEqual([expect.objectContaining({ label: 'BTW', rate_percent: 21, tax_total: tax })]);
      }
      /** What My Account → Subscriptions shows: per subscription its name and its table's rows. */
      async function subscriptionsShown(): Promise<Map<string, Record<string, string>>> {
        await shopper.goto(`${STORE_URL}/my-account/subscriptions/`);
        const shown = new Map<string, Record<string, string>>();
        for (const section of await shopper.locator('section.rps-subscription').all()) {
          const rows: Record<string, string> = {};
          for (const row of await section.locator('tr').all()) {
            rows[(await row.locator('th').innerText()).trim()] = (await row.locator('td').innerText()).replace(/\s+/g, ' ').trim();
          }
          shown.set((await section.locator('h3').innerText()).trim(), rows);
        }
        return shown;
      }
      const orderNumbers = (ids: number[]) => ids.map((id) => `Order #${id}`).join(', ');

      beforeAll(async () => {
        const address = { first_name: BUYER.firstName, last_name: BUYER.lastName, country: 'NL' };
        const username = `customer${Date.now()}`;
        customer = await wcOk('POST', 'customers', {
          email: email('registered'),
          username,
          password,
          ...address,
          billing: { ...address, address_1: BUYER.address, postcode: BUYER.postcode, city: BUYER.city },
        });
        shopper = await customerPage(browser, username, password);
      });
      afterAll(async () => {
        await shopper?.context().close();
      });

      it(
        'When a registered customer buys "Coffee of the month" at the classic checkout in Chromium, ' +
          'then the first payment is 24.20 and a subscription of 24.20 a month has two payments to come',
        async () => {
          const orderId = await checkOut(`add-to-cart=${monthlyProductId}`);
          const subscription = await expectFirstPayment(orderId, '24.20');
          expect(await wcOk<WcOrder>('GET', `orders/${orderId}`)).toMatchObject({ total_tax: '4.20' });
          expect(subscription).toMatchObject({
            status: 'active',
            next_payment_at: monthsAfter(today(), 1),
            customer: { email: customer.email },
            rules: [expect.objectContaining({ amount: '24.20', interval: 'month', interval_amount: 1, times: 3, times_done: 1 })],
          });
          // The order's line keeps the terms it was bought with, whatever the product says later.
          expect(
            storeQuery(
              'SELECT m.meta_value FROM wp_woocommerce_order_itemmeta m JOIN wp_woocommerce_order_items i ' +
                `ON i.order_item_id = m.order_item_id WHERE i.order_id = ${orderId} AND m.meta_key = '_rps_terms'`,
            ),
          ).toEqual([['{"interval":"month","interval_count":1,"length":3,"trial_days":0,"signup_fee":""}']]);
          monthly = { orderId, subscription };
        },
      );

      it(
        'When the service bills "Coffee of the month" at +1, +2 and +3 months, then it charges 24.20 twice and then nothing, ' +
          "and each renewal is an order in the customer's account with its line (20.00) and VAT (4.20)",
        async () => {
          const { orderId, subscription } = monthly;
          const first = monthsAfter(today(), 1);
          expect(await billAsOf(first, subscription)).toEqual([expect.objectContaining({ amount: 2420, currency: 'EUR' })]);
          expect(await subscriptionOf(subscription.id)).toMatchObject({ status: 'active', next_payment_at: monthsAfter(today(), 2) });
          expect(await billAsOf(monthsAfter(today(), 2), subscription)).toEqual([
            expect.objectContaining({ amount: 2420, currency: 'EUR' }),
          ]);
          expect(await subscriptionOf(subscription.id)).toMatchObject({
            status: 'completed',
            next_payment_at: null,
            rules: [expect.objectContaining({ times: 3, times_done: 3 })],
          });
          expect(await billAsOf(monthsAfter(today(), 3), subscription)).toEqual([]);

          const renewals = await untilDelivered(async () => {
            const found = await wcOk<Array<WcOrder & { customer_id: number }>>('GET', `orders?parent=${orderId}`);
            expect(found).toHaveLength(2);
            return found;
          });
          for (const renewal of renewals) expectRenewal(renewal, monthlyProductId, '20.00', '4.20');
          const theirs = await wcOk<WcOrder[]>('GET', `orders?customer=${customer.id}&per_page=100`);
          expect(theirs.map((order) => order.id).sort()).toEqual([orderId, ...renewals.map((renewal) => renewal.id)].sort());
        },
      );

      it(
        'When the customer buys the recurring variation of a variable product, ' +
          'then the first payment is its price with VAT and a subscription of that amount starts for the variation',
        async () => {
          const parent = await wcOk<WcProduct>('POST', 'products', {
            name: 'Tea box',
            type: 'variable',
            attributes: [{ name: 'Plan', options: ['Once', 'Monthly'], variation: true, visible: true }],
          });
          await wcOk('POST', `products/${parent.id}/variations`, {
            regular_price: '9.00',
            virtual: true,
            attributes: [{ name: 'Plan', option: 'Once' }],
          });
          const recurring = await wcOk<WcProduct>('POST', `products/${parent.id}/variations`, {
            regular_price: '15.00',
            virtual: true,
            attributes: [{ name: 'Plan', option: 'Monthly' }],
            meta_data: [
              { key: '_rps_recurring', value: 'yes' },
              { key: '_rps_interval', value: 'month' },
              { key: '_rps_interval_count', value: '1' },
            ],
          });
          await untilDelivered(async () =>
            expect((await productsByShopId()).get(recurring.id)).toMatchObject({ type: 'subscription', interval: 'month' }),
          );

          const orderId = await checkOut(`add-to-cart=${parent.id}&variation_id=${recurring.id}&attribute_plan=Monthly`);
          const subscription = await expectFirstPayment(orderId, '18.15');
          expect((await wcOk<WcOrder>('GET', `orders/${orderId}`)).line_items).toEqual([
            expect.objectContaining({ product_id: parent.id, variation_id: recurring.id, total: '15.00', total_tax: '3.15' }),
          ]);
          expect(subscription).toMatchObject({
            status: 'active',
            next_payment_at: monthsAfter(today(), 1),
            rules: [expect.objectContaining({ amount: '18.15', interval: 'month', interval_amount: 1, times: null })],
          });
          variation = { orderId, subscription };
        },
      );

      it(
        'When the customer buys a product with a 14-day trial and a sign-up fee, ' +
          'then the first payment is the fee with VAT and the subscription is first charged when the trial ends',
        async () => {
          const product = await wcOk<WcProduct>('POST', 'products', {
            name: 'Tasting club',
            regular_price: '10.00',
            virtual: true,
            meta_data: [
              { key: '_rps_recurring', value: 'yes' },
              { key: '_rps_interval', value: 'month' },
              { key: '_rps_interval_count', value: '1' },
              { key: '_rps_trial_days', value: '14' },
              { key: '_rps_signup_fee', value: '5.00' },
            ],
          });
          await untilDelivered(async () => expect((await productsByShopId()).get(product.id)).toMatchObject({ type: 'subscription' }));

          const orderId = await checkOut(`add-to-cart=${product.id}`);
          // 5.00 + 21 % VAT; the period's 12.10 is taken off until the trial ends.
          const subscription = await expectFirstPayment(orderId, '6.05');
          const trialEnds = daysAfter(today(), 14);
          expect(subscription).toMatchObject({
            status: 'active',
            start_date: trialEnds,
            next_payment_at: trialEnds,
            rules: [expect.objectContaining({ amount: '12.10', interval: 'month', times: null, times_done: 0 })],
          });
          trial = { orderId, subscription };

          expect(await billAsOf(daysAfter(trialEnds, -1), subscription)).toEqual([]);
          expect(await billAsOf(trialEnds, subscription)).toEqual([expect.objectContaining({ amount: 1210, currency: 'EUR' })]);
          const renewals = await untilDelivered(async () => {
            const found = await wcOk<Array<WcOrder & { customer_id: number }>>('GET', `orders?parent=${orderId}`);
            expect(found).toHaveLength(1);
            return found;
          });
          expectRenewal(renewals[0] as WcOrder & { customer_id: number }, product.id, '10.00', '2.10');
        },
      );

      it(
        'When the customer opens My Account → Subscriptions, ' +
          'then each of their subscriptions shows its status, amount, next payment, remaining payments and orders, ' +
          'and the renewal orders are in their list of orders',
        async () => {
          const renewalsOf = async (orderId: number) =>
            (await wcOk<WcOrder[]>('GET', `orders?parent=${orderId}`)).map((order) => order.id).sort((a, b) => b - a);
          const shown = await subscriptionsShown();
          expect([...shown.keys()].sort()).toEqual(
            [monthly.subscription.name, variation.subscription.name, trial.subscription.name].sort(),
          );
          expect(shown.get(monthly.subscription.name)).toEqual({
            Status: 'Completed',
            Amount: '€24.20',
            'Next payment': '—',
            'Remaining payments': '0',
            Orders: orderNumbers([...(await renewalsOf(monthly.orderId)), monthly.orderId]),
          });
          expect(shown.get(variation.subscription.name)).toEqual({
            Status: 'Active',
            Amount: '€18.15',
            'Next payment': monthsAfter(today(), 1),
            'Remaining payments': 'until cancelled',
            Orders: orderNumbers([variation.orderId]),
          });
          expect(shown.get(trial.subscription.name)).toEqual({
            Status: 'Active',
            Amount: '€12.10',
            'Next payment': monthsAfter(daysAfter(today(), 14), 1),
            'Remaining payments': 'until cancelled',
            Orders: orderNumbers([...(await renewalsOf(trial.orderId)), trial.orderId]),
          });

          // The renewal orders are the customer's orders as any other: My Account → Orders lists them.
          await shopper.goto(`${STORE_URL}/my-account/orders/`);
          const listed = await shopper.locator('.woocommerce-orders-table__cell-order-number a').allInnerTexts();
          const theirs = [monthly.orderId, variation.orderId, trial.orderId];
          for (const orderId of [...theirs]) theirs.push(...(await renewalsOf(orderId)));
          expect(listed.map((text) => text.trim()).sort()).toEqual(theirs.map((id) => `#${id}`).sort());
        },
      );

      it(
        'When the customer cancels a subscription in My Account, ' +
          'then it ends after the period paid and the billing run of its next date charges nothing for it',
        async () => {
          const { subscription } = variation;
          await subscriptionsShown();
          const section = shopper.locator(`section.rps-subscription[id="${subscription.id}"]`);
          shopper.once('dialog', (dialog) => void dialog.accept());
          await Promise.all([
            shopper.waitForURL(/\/my-account\/subscriptions\/$/),
            section.getByRole('button', { name: 'Cancel', exact: true }).click(),
          ]);
          // The store's block theme shows WooCommerce's notices as banners.
          await expect(shopper.locator('.wc-block-components-notice-banner.is-success').first().innerText()).resolves.toBe(
            'The subscription is cancelled: it ends after the period already paid.',
          );
          const renewalDay = monthsAfter(today(), 1);
          expect(await subscriptionOf(subscription.id)).toMatchObject({ status: 'active', cancel_at: renewalDay });
          // Nothing more to pay: the period paid runs out on the day it would have renewed.
          expect((await subscriptionsShown()).get(subscription.name)).toEqual({
            Status: `Active (ends ${renewalDay})`,
            Amount: '€18.15',
            'Next payment': '—',
            'Remaining payments': '0',
            Orders: orderNumbers([variation.orderId]),
          });
          await expect(section.getByRole('button', { name: 'Cancel', exact: true }).count()).resolves.toBe(0);

          expect(await billAsOf(renewalDay, subscription)).toEqual([]);
          expect(await subscriptionOf(subscription.id)).toMatchObject({ status: 'cancelled' });
          expect((await subscriptionsShown()).get(subscription.name)).toEqual({
            Status: 'Cancelled',
            Amount: '€18.15',
            'Next payment': '—',
            'Remaining payments': '0',
            Orders: orderNumbers([variation.orderId]),
          });
          expect(await billAsOf(monthsAfter(today(), 2), subscription)).toEqual([]);
          expect(await wcOk<WcOrder[]>('GET', `orders?parent=${variation.orderId}`)).toEqual([]);
        },
      );

      it(
        'When the shop owner opens WooCommerce → Subscriptions, ' +
          'then the list shows these subscriptions with their customer and status',
        async () => {
          await admin.goto(`${STORE_URL}/wp-admin/admin.php?page=rps-subscriptions`);
          const listed = new Map<string, { customer: string; status: string }>();
          for (const row of await admin.locator('table.wp-list-table tbody tr').all()) {
            listed.set((await row.locator('td.column-name strong').innerText()).trim(), {
              customer: (await row.locator('td.column-customer').innerText()).replace(/\s+/g, ' ').trim(),
              status: (await row.locator('td.column-status').innerText()).trim(),
            });
          }
          const who = `${BUYER.firstName} ${BUYER.lastName} ${customer.email}`;
          expect(listed.get(monthly.subscription.name)).toEqual({ customer: who, status: 'Completed' });
          expect(listed.get(variation.subscription.name)).toEqual({ customer: who, status: 'Cancelled' });
          expect(listed.get(trial.subscription.name)).toEqual({ customer: who, status: 'Active' });
        },
      );

      it(
        'When the customer buys two subscription products and a one-time product in one cart, ' +
          'then the first payment pays all three, each subscription line is a subscription of its own, ' +
          'and each renewal order holds only its own line',
        async () => {
          const recurring = (name: string, price: string) =>
            wcOk<WcProduct>('POST', 'products', {
              name,
              regular_price: price,
              virtual: true,
              meta_data: [
                { key: '_rps_recurring', value: 'yes' },
                { key: '_rps_interval', value: 'month' },
                { key: '_rps_interval_count', value: '1' },
              ],
            });
          const syrup = await recurring('Syrup club', '8.00');
          const milk = await recurring('Milk club', '6.00');
          const papers = await wcOk<WcProduct>('POST', 'products', { name: 'Filter papers', regular_price: '3.00', virtual: true });
          await untilDelivered(async () => {
            const here = await productsByShopId();
            for (const product of [syrup, milk, papers]) expect(here.get(product.id)).toBeDefined();
          });

          await shopper.goto(`${STORE_URL}/?add-to-cart=${syrup.id}`);
          await shopper.goto(`${STORE_URL}/?add-to-cart=${milk.id}`);
          // (8.00 + 6.00 + 3.00) + 21 % VAT
          const orderId = await checkOut(`add-to-cart=${papers.id}`);
          mixedOrderId = orderId;
          await expectFirstPayment(orderId, '20.57');
          const theirs = await listAll<Subscription>('/api/v2/subscriptions');
          const started = theirs.filter((subscription) => subscription.name.startsWith(`Order ${orderId}: `));
          mixed = started;
          expect(started.map((subscription) => [subscription.name, subscription.rules[0]?.amount]).sort()).toEqual([
            [`Order ${orderId}: Milk club`, '7.26'],
            [`Order ${orderId}: Syrup club`, '9.68'],
          ]);

          const renewalDay = monthsAfter(today(), 1);
          cli('billing', 'run', '--date', renewalDay, '--force');
          const charged = await providerCallsForPendingCharges();
          cli('jobs', 'run', 'process-provider-webhooks');
          cli('jobs', 'run', 'write-back-to-stores');
          const ours = charged.filter((charge) => started.some((subscription) => charge.description.startsWith(`${subscription.name} `)));
          expect(ours.map((charge) => charge.amount).sort()).toEqual([726, 968]);
          const renewals = await untilDelivered(async () => {
            const found = await wcOk<Array<WcOrder & { customer_id: number }>>('GET', `orders?parent=${orderId}`);
            expect(found).toHaveLength(2);
            return found;
          });
          const byProduct = new Map(renewals.map((renewal) => [renewal.line_items[0]?.product_id, renewal]));
          expectRenewal(byProduct.get(syrup.id) as WcOrder & { customer_id: number }, syrup.id, '8.00', '1.68');
          expectRenewal(byProduct.get(milk.id) as WcOrder & { customer_id: number }, milk.id, '6.00', '1.26');
        },
      );

      it(
        'When the customer skips the next payment in My Account, ' + 'then its date charges nothing and the period after it is charged',
        async () => {
          const { subscription } = trial;
          const next = (await subscriptionOf(subscription.id)).next_payment_at as string;
          await subscriptionsShown();
          const skip = shopper
            .locator(`section.rps-subscription[id="${subscription.id}"]`)
            .getByRole('button', { name: 'Skip next payment' });
          await skip.click();
          await expect(shopper.locator('.wc-block-components-notice-banner.is-success').first().innerText()).resolves.toBe(
            'The next payment is skipped.',
          );
          expect(await subscriptionOf(subscription.id)).toMatchObject({ status: 'active', next_payment_at: monthsAfter(next, 1) });
          expect((await subscriptionsShown()).get(subscription.name)).toMatchObject({ 'Next payment': monthsAfter(next, 1) });

          expect(await billAsOf(next, subscription)).toEqual([]);
          expect(await billAsOf(monthsAfter(next, 1), subscription)).toEqual([expect.objectContaining({ amount: 1210 })]);
        },
      );

      it(
        'When the customer pauses a subscription in My Account until a date and resumes it, ' +
          'then it is paused until then and active again',
        async () => {
          const { subscription } = trial;
          const next = (await subscriptionOf(subscription.id)).next_payment_at;
          const resumeAt = daysAfter(today(), 10);
          await subscriptionsShown();
          const section = shopper.locator(`section.rps-subscription[id="${subscription.id}"]`);
          await section.locator('input[name=rps_resume_at]').fill(resumeAt);
          await section.getByRole('button', { name: 'Pause', exact: true }).click();
          await expect(shopper.locator('.wc-block-components-notice-banner.is-success').first().innerText()).resolves.toBe(
            'The subscription is paused.',
          );
          expect(await subscriptionOf(subscription.id)).toMatchObject({ status: 'paused', resume_at: resumeAt });
          expect((await subscriptionsShown()).get(subscription.name)).toMatchObject({ Status: `Paused (until ${resumeAt})` });

          await section.getByRole('button', { name: 'Resume', exact: true }).click();
          await expect(shopper.locator('.wc-block-components-notice-banner.is-success').first().innerText()).resolves.toBe(
            'The subscription is resumed.',
          );
          expect(await subscriptionOf(subscription.id)).toMatchObject({ status: 'active', resume_at: null, next_payment_at: next });
          expect((await subscriptionsShown()).get(subscription.name)).toMatchObject({ Status: 'Active' });
        },
      );

      it(
        'When the shop owner cancels a subscription from WooCommerce → Subscriptions, ' +
          'then it ends after its paid period and the list and the buyer say so',
        async () => {
          const subscription = mixed.find((one) => one.name.endsWith(': Milk club')) as Subscription;
          const next = (await subscriptionOf(subscription.id)).next_payment_at as string;
          await admin.goto(`${STORE_URL}/wp-admin/admin.php?page=rps-subscriptions`);
          await admin.locator('.subsubsub').getByRole('link', { name: 'Active' }).click();
          await admin.waitForURL(/status=active/);
          const row = admin.locator('table.wp-list-table tbody tr').filter({ hasText: subscription.id });
          await row.hover();
          // The list asks "Cancel … after the period already paid?": the shop owner says OK (the admin page's dialog handler).
          // Back on the Active view the shop owner was in.
          await Promise.all([
            admin.waitForURL(/admin\.php\?page=rps-subscriptions&status=active$/),
            row.locator('.row-actions a', { hasText: 'Cancel' }).click(),
          ]);
          await expect(admin.locator('.notice-success p').innerText()).resolves.toBe(
            'The subscription is cancelled: it ends after the period already paid.',
          );
          expect(await subscriptionOf(subscription.id)).toMatchObject({ status: 'active', cancel_at: next });
          const listed = admin.locator('table.wp-list-table tbody tr').filter({ hasText: subscription.id });
          await expect(listed.locator('td.column-status').innerText()).resolves.toBe(`Active (ends ${next})`);
          expect((await subscriptionsShown()).get(subscription.name)).toMatchObject({
            Status: `Active (ends ${next})`,
            'Remaining payments': '0',
          });
          expect(await billAsOf(next, subscription)).toEqual([]);
        },
      );

      it(
        "When the shop owner opens a subscription's order from the list, " +
          'then its box shows the subscriptions the order started and links to just those in the list',
        async () => {
          await admin.goto(`${STORE_URL}/wp-admin/admin.php?page=rps-subscriptions`);
          const row = admin.locator('table.wp-list-table tbody tr').filter({ hasText: mixed[0]?.id ?? '' });
          await Promise.all([admin.waitForURL(/action=edit/), row.locator('td.column-orders a', { hasText: `#${mixedOrderId}` }).click()]);
          const box = admin.locator('#rps-order-box');
          const listedInBox = (await box.locator('ul').nth(1).locator('li').allInnerTexts()).map((text) => text.trim()).sort();
          const [milk, syrup] = await Promise.all(
            [': Milk club', ': Syrup club'].map((name) =>
              subscriptionOf((mixed.find((one) => one.name.endsWith(name)) as Subscription).id),
            ),
          );
          // Their statuses as the list says them (Milk club ended on the day its cancel took effect).
          expect(listedInBox).toEqual([
            `${milk?.name} — Cancelled, next payment —`,
            `${syrup?.name} — Active, next payment ${syrup?.next_payment_at}`,
          ]);
          await Promise.all([
            admin.waitForURL(/page=rps-subscriptions/),
            box.getByRole('link', { name: 'Manage these subscriptions' }).click(),
          ]);
          const names = await admin.locator('table.wp-list-table tbody td.column-name strong').allInnerTexts();
          expect(names.sort()).toEqual(mixed.map((one) => one.name).sort());
        },
      );
    });
  });

  describe('with WooCommerce Subscriptions active ("Accept manual renewals" on) and one of its subscription products', () => {
    interface WcsSubscription {
      id: number;
      status: string;
      parent_id: number;
      payment_method: string;
      requires_manual_renewal: boolean;
      next_payment_date_gmt: string | null;
    }
    let product: WcProduct;
    let firstOrderId: number;
    let wcs: WcsSubscription;
    let subscriptionId: string;
    let renewal: WcOrder;

    /** What WooCommerce Subscriptions has of its subscription now, and its related orders of a kind (renewal, parent). */
    const wcsNow = () => wcOk<WcsSubscription>('GET', `subscriptions/${wcs.id}`);
    const wcsRelated = (kind: 'renewal' | 'parent') =>
      wpEval(`echo wp_json_encode( array_values( wcs_get_subscription( ${wcs.id} )->get_related_orders( 'ids', '${kind}' ) ) );`);
    const storeOrderCount = () =>
      wpEval("echo count( wc_get_orders( array( 'limit' => -1, 'return' => 'ids', 'type' => 'shop_order' ) ) );");

    beforeAll(async () => {
      setUpStore(PLUGIN_ZIP, { wcs: true }); // Only what is missing: the extension, installed and activated.
      // Manual renewals accepted (both systems billed before), and accounts made at checkout without asking for a password.
      wpEval(
        "update_option( 'woocommerce_subscriptions_accept_manual_renewals', 'yes' ); " +
          "update_option( 'woocommerce_registration_generate_password', 'yes' ); " +
          "update_option( 'woocommerce_registration_generate_username', 'yes' );",
      );
      product = await wcOk<WcProduct>('POST', 'products', {
        name: "Roaster's choice",
        type: 'subscription',
        regular_price: '15.00',
        virtual: true,
        meta_data: [
          { key: '_subscription_price', value: '15.00' },
          { key: '_subscription_period', value: 'month' },
          { key: '_subscription_period_interval', value: '1' },
          { key: '_subscription_length', value: '0' },
          { key: '_subscription_trial_length', value: '0' },
          { key: '_subscription_sign_up_fee', value: '' },
        ],
      });
      await untilDelivered(async () => expect((await productsByShopId()).get(product.id)).toMatchObject({ type: 'subscription' }));
    });
    afterAll(() => {
      // The later scenarios (disconnect, delete the plugin) run on the store as before.
      wpEval(
        "require_once ABSPATH . 'wp-admin/includes/plugin.php'; " +
          "deactivate_plugins( 'woocommerce-subscriptions/woocommerce-subscriptions.php' );",
      );
    });

    it(
      "When a buyer subscribes with our gateway in Chromium, then the extension's subscription is automatic and paid by our gateway, " +
        'and the service has one subscription for it',
      async () => {
        const buyer = await buyerWithCart(browser, product.id);
        await placeClassicOrder(buyer, email('wcs'));
        await finishOnSandbox(buyer, 'paid');
        firstOrderId = orderIdOf(buyer.url());
        await buyer.context().close();
        const order = await expectPaid(firstOrderId, '15.00');
        expect(order.subscription).toEqual(expect.any(String));
        subscriptionId = order.subscription as string;

        const made = JSON.parse(
          wpEval(
            `echo wp_json_encode( array_keys( wcs_get_subscriptions_for_order( ${firstOrderId}, array( 'order_type' => 'parent' ) ) ) );`,
          ),
        ) as number[];
        expect(made).toHaveLength(1);
        wcs = await wcOk<WcsSubscription>('GET', `subscriptions/${made[0]}`);
        expect(wcs).toMatchObject({ status: 'active', payment_method: 'rps', requires_manual_renewal: false, parent_id: firstOrderId });
        const first = await wcOk<WcOrder>('GET', `orders/${firstOrderId}`);
        const lines = JSON.parse(String(first.meta_data.find((meta) => meta.key === '_rps_wcs_lines')?.value)) as Record<string, number>;
        expect(Object.values(lines)).toEqual([wcs.id]);

        const here = await api<{ status: string; shop_subscription_id: number; rules: Array<{ amount: string }> }>(
          'GET',
          `/api/v2/subscriptions/${subscriptionId}`,
        );
        expect(here.body).toMatchObject({
          status: 'active',
          shop_subscription_id: wcs.id,
          rules: [expect.objectContaining({ amount: '15.00' })],
        });
        const all = await listAll<{ id: string; shop_subscription_id?: number }>('/api/v2/subscriptions');
        expect(all.filter((subscription) => subscription.shop_subscription_id === wcs.id)).toHaveLength(1);
      },
    );

    it(
      "When the service bills the period, then the provider charges once and the store gets one renewal order, linked to the extension's " +
        'subscription, whose next payment date follows the service',
      async () => {
        const before = await api<{ next_payment_at: string }>('GET', `/api/v2/subscriptions/${subscriptionId}`);
        expect(cli('billing', 'run', '--date', before.body.next_payment_at.slice(0, 10), '--force')).toContain('1 charged');
        const charged = await providerCallsForPendingCharges();
        expect(charged).toEqual([expect.objectContaining({ amount: 1500, currency: 'EUR' })]);
        cli('jobs', 'run', 'process-provider-webhooks');
        cli('jobs', 'run', 'write-back-to-stores');

        const children = await untilDelivered(async () => {
          const found = await wcOk<WcOrder[]>('GET', `orders?parent=${firstOrderId}`);
          expect(found).toEqual([expect.objectContaining({ status: 'processing' })]);
          return found;
        });
        renewal = children[0] as WcOrder;
        expect(renewal).toMatchObject({ total: '15.00', payment_method: 'rps', transaction_id: expect.stringMatching(/^tr_/) });
        expect(renewal.meta_data).toContainEqual(expect.objectContaining({ key: '_subscription_renewal', value: String(wcs.id) }));
        // The extension knows it as its subscription's renewal (its related-order store), and the subscription stays active.
        expect(JSON.parse(wcsRelated('renewal'))).toEqual([renewal.id]);
        const after = await api<{ next_payment_at: string }>('GET', `/api/v2/subscriptions/${subscriptionId}`);
        // The store's midnight (its own time zone) of the service's next charge date, in GMT.
        const midnight = wpEval(
          `$day = new DateTimeImmutable( '${after.body.next_payment_at.slice(0, 10)} 00:00:00', wp_timezone() ); ` +
            "echo gmdate( 'Y-m-d\\TH:i:s', $day->getTimestamp() );",
        );
        expect(await wcsNow()).toMatchObject({ status: 'active', next_payment_date_gmt: midnight });
      },
    );

    it("When the extension's own scheduled payment runs, then it makes no renewal order and charges nothing", async () => {
      const orders = storeOrderCount();
      // The extension's renewal action, due now (as when its next payment date has passed), run by the store's queue.
      wpEval(
        `as_unschedule_all_actions( 'woocommerce_scheduled_subscription_payment', array( 'subscription_id' => ${wcs.id} ) ); ` +
          `as_schedule_single_action( time() - 60, 'woocommerce_scheduled_subscription_payment', ` +
          `array( 'subscription_id' => ${wcs.id} ) );`,
      );
      runQueue();
      const ran = wpEval(
        `echo count( as_get_scheduled_actions( array( 'hook' => 'woocommerce_scheduled_subscription_payment', ` +
          `'args' => array( 'subscription_id' => ${wcs.id} ), 'status' => ActionScheduler_Store::STATUS_COMPLETE ), 'ids' ) );`,
      );
      expect(Number(ran)).toBeGreaterThanOrEqual(1);
      expect(storeOrderCount()).toBe(orders);
      expect(JSON.parse(wcsRelated('renewal'))).toEqual([renewal.id]);
      expect((await wcsNow()).status).toBe('active');
      expect(await providerCallsForPendingCharges()).toEqual([]);
    });

    it(
      'When the shop owner cancels the subscription in the extension at the end of the paid period, then the service cancels it on its ' +
        'next date and charges nothing more',
      async () => {
        const before = await api<{ next_payment_at: string }>('GET', `/api/v2/subscriptions/${subscriptionId}`);
        const end = before.body.next_payment_at.slice(0, 10);
        await wcOk('PUT', `subscriptions/${wcs.id}`, { status: 'pending-cancel' });
        expect((await api('GET', `/api/v2/subscriptions/${subscriptionId}`)).body).toMatchObject({ status: 'active', cancel_at: end });
        // The service's callback comes back to the store: the extension's subscription is pending-cancel already, nothing changes.
        cli('jobs', 'run', 'deliver-webhook-events');
        expect((await wcsNow()).status).toBe('pending-cancel');
        const notes = await wcOk<Array<{ note: string }>>('GET', `subscriptions/${wcs.id}/notes`);
        expect(notes.filter((note) => note.note.startsWith('The recurring payments service was told'))).toEqual([
          expect.objectContaining({ note: 'The recurring payments service was told: cancel at the end of the paid period.' }),
        ]);
        expect((await api('GET', `/api/v2/subscriptions/${subscriptionId}`)).body).toMatchObject({ status: 'active', cancel_at: end });
        // That day's run (other scenarios' subscriptions may be charged on it) cancels it and charges it nothing.
        cli('billing', 'run', '--date', end, '--force');
        expect((await providerCallsForPendingCharges()).filter((charge) => charge.amount === 1500)).toEqual([]);
        expect((await api('GET', `/api/v2/subscriptions/${subscriptionId}`)).body).toMatchObject({ status: 'cancelled', cancel_at: end });
        cli('jobs', 'run', 'process-provider-webhooks');
        cli('jobs', 'run', 'write-back-to-stores');
        expect(await wcOk<WcOrder[]>('GET', `orders?parent=${firstOrderId}`)).toEqual([expect.objectContaining({ id: renewal.id })]);
      },
    );

    /**
     * Moving over (docs/moving-over.md, "From WooCommerce Subscriptions"): subscriptions the extension
     * bills through Mollie's plugin, made over REST with the meta that plugin keeps (the store has no
     * Mollie plugin: POST makes them manual, a PUT makes them automatic again). Their customers and
     * mandates are at the Mollie fake, served here over HTTPS; the account uses it meanwhile.
     */
    describe("taken over from Mollie's plugin with the import", () => {
      const ACCOUNT = 'Realstore suite';
      const IBAN = 'NL91ABNA0417164300';
      let fake: MollieFake;
      let mollie: { apiUrl: string; close(): Promise<void> };
      interface Taken {
        wcs: number;
        parent: number;
        mandateId: string;
        cents: number;
      }
      const taken: Taken[] = [];
      let nextDate: string;
      let ours: string[] = [];

      /** A subscriber of Mollie's plugin: customer and SEPA mandate at Mollie, WordPress customer, paid parent order, subscription. */
      async function mollieSubscription(
        who: string,
        mandateOnParentOnly: boolean,
        login?: { username: string; password: string },
      ): Promise<Taken> {
        const address = email(who);
        const cst = fake.seedCustomer({ name: `${who} Jansen`, email: address });
        const made = await fake.handle({
          idempotencyKey: undefined,
          method: 'POST',
          path: `/v2/customers/${cst}/mandates`,
          body: { method: 'directdebit', consumerName: `${who} Jansen`, consumerAccount: IBAN, signatureDate: '2025-01-02' },
        });
        const mandateId = String((made as { body: { id: string } }).body.id);
        const customer = await wcOk<{ id: number }>('POST', 'customers', {
          email: address,
          first_name: who,
          last_name: 'Jansen',
          ...login,
        });
        const billing = { first_name: who, last_name: 'Jansen', email: address, country: 'NL' };
        const mollieMeta = [
          { key: '_mollie_customer_id', value: cst },
          { key: '_mollie_mandate_id', value: mandateId },
        ];
        const parent = await wcOk<WcOrder>('POST', 'orders', {
          status: 'completed',
          customer_id: customer.id,
          payment_method: 'mollie_wc_gateway_directdebit',
          payment_method_title: 'SEPA Direct Debit',
          billing,
          line_items: [{ product_id: product.id, quantity: 1 }],
          meta_data: mollieMeta,
        });
        // The extension reads its dates as start_date, next_payment_date (GMT, `Y-m-d H:i:s`); it answers them as …_gmt.
        const now = new Date().toISOString().slice(0, 19).replace('T', ' ');
        const created = await wcOk<WcsSubscription>('POST', 'subscriptions', {
          customer_id: customer.id,
          parent_id: parent.id,
          status: 'active',
          billing_period: 'month',
          billing_interval: '1',
          start_date: now,
          next_payment_date: `${nextDate} 10:00:00`,
          payment_method: 'mollie_wc_gateway_directdebit',
          billing,
          line_items: [{ product_id: product.id, quantity: 1 }],
          meta_data: mandateOnParentOnly ? mollieMeta.slice(0, 1) : mollieMeta,
        });
        const automatic = await wcOk<WcsSubscription & { total: string }>('PUT', `subscriptions/${created.id}`, {
          requires_manual_renewal: false,
        });
        expect(automatic).toMatchObject({
          status: 'active',
          payment_method: 'mollie_wc_gateway_directdebit',
          requires_manual_renewal: false,
        });
        return { wcs: created.id, parent: parent.id, mandateId, cents: Math.round(Number(automatic.total) * 100) };
      }

      const importing = (dryRun: boolean) =>
        api<{
          counts: Record<string, number>;
          rows: { data: Array<{ source_id: string; outcome: string; reason: string; subscription_id: string }> };
        }>('POST', '/api/v2/imports', { source: 'woocommerce-subscriptions', dry_run: dryRun });
      const rowsOf = <Row extends { source_id: string }>(rows: Row[]) =>
        rows.filter((row) => taken.some((one) => String(one.wcs) === row.source_id));
      /** The recurring payments Mollie was asked for on the mandates of these subscriptions. */
      const mollieCharges = () =>
        [...fake.payments.values()].filter(
          (payment) => payment.sequenceType === 'recurring' && taken.some((one) => one.mandateId === payment.mandateId),
        );

      beforeAll(async () => {
        fake = new MollieFake('');
        mollie = await serveOverHttps(fake);
        cli(
          'accounts',
          'set-provider',
          '--account',
          ACCOUNT,
          '--mollie-api-key',
          'test_dHar4XY7LxsDOtmnkVtjNVWXLSlXsM',
          '--mollie-api-url',
          mollie.apiUrl,
        );
        // A week ahead: before any other subscription of the suite's account is due again.
        nextDate = daysAfter(today(), 7);
        taken.push(await mollieSubscription('Mies', false), await mollieSubscription('Noor', true));
      });
      afterAll(async () => {
        cli('accounts', 'set-provider', '--account', ACCOUNT, '--none');
        await mollie.close();
      });

      it('When the import is dry run, then it lists each subscription it would take over with its plan and changes nothing', async () => {
        const res = await importing(true);
        expect(res.status).toBe(201);
        expect(rowsOf(res.body.rows.data)).toEqual(
          taken.map((one) =>
            expect.objectContaining({
              source_id: String(one.wcs),
              outcome: 'would_create',
              reason: `${(one.cents / 100).toFixed(2)} EUR every month, next ${nextDate} (until cancelled); mandate ${one.mandateId}`,
            }),
          ),
        );
        // The extension's subscription bought with our gateway earlier is ours already.
        expect(res.body.rows.data).toContainEqual(
          expect.objectContaining({ source_id: String(wcs.id), outcome: 'would_skip', reason: 'Billed through our gateway already.' }),
        );
        for (const one of taken) {
          expect(await wcOk<WcsSubscription>('GET', `subscriptions/${one.wcs}`)).toMatchObject({
            payment_method: 'mollie_wc_gateway_directdebit',
            requires_manual_renewal: false,
          });
        }
      });

      it(
        'When the import runs, then the service has a subscription for each on the same terms and the store bills them with our ' +
          'gateway; a second run creates nothing',
        async () => {
          const res = await importing(false);
          expect(res.status).toBe(201);
          const rows = rowsOf(res.body.rows.data);
          expect(rows).toEqual(
            taken.map((one) =>
              expect.objectContaining({
                source_id: String(one.wcs),
                outcome: 'created',
                reason: expect.stringContaining('switched to our gateway'),
              }),
            ),
          );
          ours = rows.map((row) => row.subscription_id);
          for (const [index, one] of taken.entries()) {
            expect(await wcOk<WcsSubscription>('GET', `subscriptions/${one.wcs}`)).toMatchObject({
              status: 'active',
              payment_method: 'rps',
              requires_manual_renewal: false,
            });
            const here = await api<Record<string, unknown>>('GET', `/api/v2/subscriptions/${ours[index]}`);
            expect(here.body).toMatchObject({
              status: 'active',
              shop_subscription_id: one.wcs,
              source: 'woocommerce-subscriptions',
              source_id: String(one.wcs),
              next_payment_at: expect.stringMatching(new RegExp(`^${nextDate}`)),
            });
          }
          const again = await importing(false);
          expect(rowsOf(again.body.rows.data).map((row) => row.outcome)).toEqual(['exists', 'exists']);
          // The mandates are Mollie's already: the imports made none there (the two are this scenario's own setup).
          expect(fake.requests.filter((request) => request.method === 'POST' && request.path.includes('/mandates'))).toHaveLength(
            taken.length,
          );
        },
      );

      it(
        'When billing runs at their next date, then Mollie charges each once through the service and the store gets one renewal ' +
          "order of each, linked to the extension's subscription; the extension's own scheduled payment makes none",
        async () => {
          expect(await cliAsync('billing', 'run', '--date', nextDate, '--force')).toContain(`${taken.length} charged`);
          const charges = mollieCharges();
          expect(charges.map((charge) => [charge.mandateId, (charge.amount as { value: string }).value]).sort()).toEqual(
            taken.map((one) => [one.mandateId, (one.cents / 100).toFixed(2)]).sort(),
          );
          const ref = accountRef(ACCOUNT);
          for (const charge of charges) {
            fake.setPaymentStatus(String(charge.id), 'paid');
            const res = await fetch(`${SERVICE_URL}/webhooks/mollie?account=${ref}`, {
              method: 'POST',
              headers: { 'Content-Type': 'application/x-www-form-urlencoded', Connection: 'close' },
              body: new URLSearchParams({ id: String(charge.id) }).toString(),
            });
            expect(res.ok).toBe(true);
          }
          await cliAsync('jobs', 'run', 'process-provider-webhooks');
          await cliAsync('jobs', 'run', 'write-back-to-stores');
          for (const one of taken) {
            const children = await untilDelivered(async () => {
              const found = await wcOk<WcOrder[]>('GET', `orders?parent=${one.parent}`);
              expect(found).toEqual([expect.objectContaining({ status: 'processing' })]);
              return found;
            });
            expect(children[0]?.meta_data).toContainEqual(
              expect.objectContaining({ key: '_subscription_renewal', value: String(one.wcs) }),
            );
            // Charged through our gateway, though the parent order names Mollie's.
            expect(children[0]).toMatchObject({ payment_method: 'rps', total: (one.cents / 100).toFixed(2) });
            const related = wpEval(
              `echo wp_json_encode( array_values( wcs_get_subscription( ${one.wcs} )->get_related_orders( 'ids', 'renewal' ) ) );`,
            );
            expect(JSON.parse(related)).toEqual([children[0]?.id]);
          }

          // The extension's renewal action, due now, run by the store's queue: no order, no charge.
          const orders = storeOrderCount();
          for (const one of taken) {
            wpEval(
              `as_unschedule_all_actions( 'woocommerce_scheduled_subscription_payment', array( 'subscription_id' => ${one.wcs} ) ); ` +
                `as_schedule_single_action( time() - 60, 'woocommerce_scheduled_subscription_payment', ` +
                `array( 'subscription_id' => ${one.wcs} ) );`,
            );
          }
          runQueue();
          expect(storeOrderCount()).toBe(orders);
          for (const one of taken) expect(await wcOk<WcOrder[]>('GET', `orders?parent=${one.parent}`)).toHaveLength(1);
          // The same day billed again: nothing more.
          expect(await cliAsync('billing', 'run', '--date', nextDate, '--force')).toContain('0 charged');
          expect(mollieCharges()).toHaveLength(taken.length);
        },
      );

      /**
       * Issue 36: the store renews (Mollie's plugin) or the customer cancels between the import's steps.
       * A must-use plugin plays Mollie's renewal right after the store answered the import's listing:
       * a renewal order paid with Mollie's gateway, the subscription's last payment now and its next one a
       * period on, as WooCommerce Subscriptions records a renewal.
       */
      describe('while the store goes on', () => {
        const MU_PLUGIN = path.join(DOCROOT, 'wp-content/mu-plugins/rps-suite-meanwhile.php');
        const login = { username: `olga${Date.now()}`, password: `Pw-${Date.now()}-${Math.random().toString(36).slice(2)}` };
        let olga: Taken;
        let olgaOurs: string;
        let shopper: Page | undefined;

        beforeAll(async () => {
          writeFileSync(
            MU_PLUGIN,
            `<?php
add_filter( 'rest_post_dispatch', static function ( $response, $server, $request ) {
	$renew = get_option( 'rps_suite_renew_after_listing' );
	if ( ! is_array( $renew ) || 'GET' !== $request->get_method() || '/wc/v3/subscriptions' !== $request->get_route() ) {
		return $response;
	}
	delete_option( 'rps_suite_renew_after_listing' );
	$subscription = wcs_get_subscription( (int) $renew['id'] );
	$renewal      = wcs_create_renewal_order( $subscription );
	$renewal->set_payment_method( 'mollie_wc_gateway_directdebit' );
	$renewal->payment_complete( 'tr_suiterenewal' );
	$subscription = wcs_get_subscription( (int) $renew['id'] );
	$subscription->update_dates( array( 'next_payment' => $renew['next'] ) );
	$subscription->update_status( 'active' );
	return $response;
}, 10, 3 );
`,
          );
          olga = await mollieSubscription('Olga', false, login);
        });
        afterAll(async () => {
          rmSync(MU_PLUGIN, { force: true });
          await shopper?.context().close();
        });

        it(
          "When Mollie's plugin renews a subscription between the import's listing and its switch, then the service moves past " +
            'that period: the period the store billed is not charged again',
          async () => {
            const storeNext = monthsAfter(nextDate, 1);
            wpEval(
              `update_option( 'rps_suite_renew_after_listing', array( 'id' => ${olga.wcs}, 'next' => '${storeNext} 10:00:00' ), false );`,
            );
            const res = await importing(false);
            expect(res.status).toBe(201);
            expect(wpEval("var_export( get_option( 'rps_suite_renew_after_listing' ) );")).toBe('false'); // It renewed.
            const row = res.body.rows.data.find((one) => one.source_id === String(olga.wcs));
            expect(row).toMatchObject({
              outcome: 'created',
              reason: expect.stringContaining(`the store billed up to ${storeNext}; switched`),
            });
            olgaOurs = String(row?.subscription_id);
            const store = await wcOk<WcsSubscription & { meta_data: Array<{ key: string; value: unknown }> }>(
              'GET',
              `subscriptions/${olga.wcs}`,
            );
            expect(store).toMatchObject({ status: 'active', payment_method: 'rps', next_payment_date_gmt: `${storeNext}T10:00:00` });
            // Our id on the store's subscription, written by the switch itself: the plugin tells ours of changes from now on.
            expect(store.meta_data).toContainEqual(expect.objectContaining({ key: '_rps_service_subscription_id', value: olgaOurs }));
            const here = await api<{ next_payment_at: string }>('GET', `/api/v2/subscriptions/${olgaOurs}`);
            expect(here.body.next_payment_at.slice(0, 10)).toBe(storeNext);
            // The day the store's renewal paid: the service charges Olga nothing.
            await cliAsync('billing', 'run', '--date', nextDate, '--force');
            expect([...fake.payments.values()].filter((payment) => payment.mandateId === olga.mandateId)).toEqual([]);
          },
        );

        it(
          'When the customer cancels that subscription in My Account (no renewal of ours yet), then the service hears of it ' +
            'and charges nothing on its next date',
          async () => {
            const storeNext = monthsAfter(nextDate, 1);
            shopper = await customerPage(browser, login.username, login.password);
            await shopper.goto(`${STORE_URL}/my-account/view-subscription/${olga.wcs}/`);
            shopper.once('dialog', (dialog) => void dialog.accept());
            await shopper.locator('a.button.cancel').first().click();
            // The extension's cancel link changes it and sends the customer back to the subscription's page.
            await untilDelivered(async () =>
              expect((await wcOk<WcsSubscription>('GET', `subscriptions/${olga.wcs}`)).status).toMatch(/^(pending-cancel|cancelled)$/),
            );
            const here = await api<{ status: string; cancel_at: string | null }>('GET', `/api/v2/subscriptions/${olgaOurs}`);
            expect(here.body.cancel_at ?? here.body.status).toMatch(new RegExp(`^(${storeNext}|cancelled)`));
            const notes = await wcOk<Array<{ note: string }>>('GET', `subscriptions/${olga.wcs}/notes`);
            expect(notes.map((note) => note.note)).toContainEqual(
              expect.stringMatching(/^The recurring payments service was told: cancel/),
            );
            // In a process of its own, answered by the Mollie fake in this one (a synchronous run would block the fake's answers).
            await cliAsync('billing', 'run', '--date', storeNext, '--force');
            expect([...fake.payments.values()].filter((payment) => payment.mandateId === olga.mandateId)).toEqual([]);
            expect((await api('GET', `/api/v2/subscriptions/${olgaOurs}`)).body).toMatchObject({ status: 'cancelled' });
          },
        );
      });
    });

    describe('with taxes on and a subscription product at the reduced rate (9 %)', () => {
      let reduced: WcProduct;

      beforeAll(async () => {
        await wcOk('PUT', 'settings/general/woocommerce_calc_taxes', { value: 'yes' });
        await wcOk('PUT', 'settings/tax/woocommerce_prices_include_tax', { value: 'no' });
        await wcOk('POST', 'taxes', { country: 'NL', rate: '9.0000', name: 'BTW laag', class: 'reduced-rate' });
        reduced = await wcOk<WcProduct>('POST', 'products', {
          name: 'Coffee beans',
          type: 'subscription',
          regular_price: '10.00',
          virtual: true,
          tax_class: 'reduced-rate',
          meta_data: [
            { key: '_subscription_price', value: '10.00' },
            { key: '_subscription_period', value: 'month' },
            { key: '_subscription_period_interval', value: '1' },
            { key: '_subscription_length', value: '0' },
            { key: '_subscription_trial_length', value: '0' },
            { key: '_subscription_sign_up_fee', value: '' },
          ],
        });
        await untilDelivered(async () => expect((await productsByShopId()).get(reduced.id)).toMatchObject({ type: 'subscription' }));
      });
      afterAll(async () => {
        await wcOk('PUT', 'settings/general/woocommerce_calc_taxes', { value: 'no' });
      });

      it("a 9 % product's renewal invoice: bought and renewed, its invoices carry the store's 9 % VAT, equal to each charge", async () => {
        const buyer = await buyerWithCart(browser, reduced.id);
        await placeClassicOrder(buyer, email('reduced'));
        await finishOnSandbox(buyer, 'paid');
        const orderId = orderIdOf(buyer.url());
        await buyer.context().close();
        const order = await expectPaid(orderId, '10.90');
        const ours = order.subscription as string;
        expect(ours).toEqual(expect.any(String));

        const before = await api<{ next_payment_at: string }>('GET', `/api/v2/subscriptions/${ours}`);
        expect(cli('billing', 'run', '--date', before.body.next_payment_at.slice(0, 10), '--force')).toMatch(/[1-9]\d* charged/);
        expect(await providerCallsForPendingCharges()).toContainEqual(expect.objectContaining({ amount: 1090, currency: 'EUR' }));
        cli('jobs', 'run', 'process-provider-webhooks');
        cli('jobs', 'run', 'write-back-to-stores');

        // The checkout's invoice of the first period and the renewal's: each at the 9 % the store charged, never the account's 21 %.
        const invoices = await api<{ data: Array<{ id: string; subscription_id: string | null }> }>('GET', '/api/v2/invoices?per_page=100');
        const mine = invoices.body.data.filter((one) => one.subscription_id === ours);
        expect(mine).toHaveLength(2);
        for (const one of mine) {
          expect((await api<Record<string, unknown>>('GET', `/api/v2/invoices/${one.id}`)).body).toMatchObject({
            status: 'issued',
            lines: [expect.objectContaining({ vat: '9', total_excluding_vat: '10.00', total_vat: '0.90', total_including_vat: '10.90' })],
            vat_totals: [{ vat: '9', total_excluding_vat: '10.00', total_vat: '0.90', total_including_vat: '10.90' }],
          });
        }
      });
    });
  });

  it(
    'When the store is disconnected at the service, then our webhooks are gone, the plugin says so, ' +
      'and a buyer still pays at the checkout without an error',
    async () => {
      expect(cli('shops', 'disconnect', '--account', 'Realstore suite')).toContain('is no longer connected to its store');
      expect((await api('GET', '/api/v2/shop')).body).toMatchObject({ status: 'disconnected' });
      expect(await ourWebhooks()).toEqual([]);

      // The plugin still thinks it is connected: the service's answer tells it otherwise, and the buyer pays plainly.
      const product = await wcOk<WcProduct>('POST', 'products', { name: 'Tamper', regular_price: '19.95', virtual: true });
      const buyer = await buyerWithCart(browser, product.id);
      await placeClassicOrder(buyer, email('disconnected'));
      await finishOnSandbox(buyer, 'paid');
      const orderId = orderIdOf(buyer.url());
      await expect(orderStatusShown(buyer)).resolves.toEqual(THANK_YOU);
      await buyer.context().close();
      await untilDelivered(async () => {
        cli('jobs', 'run', 'deliver-webhook-events');
        expect(await wcOk<WcOrder>('GET', `orders/${orderId}`)).toMatchObject({ status: 'processing', date_paid_gmt: expect.any(String) });
      });
      // Not written here: without a connection the service no longer hears of the store's orders.
      expect(await serviceOrderOf(orderId)).toBeUndefined();

      await admin.goto(`${STORE_URL}/wp-admin/admin.php?page=rps-recurring-payments`);
      await expect(admin.locator('#rps-connection-result').textContent()).resolves.toMatch(/^This store is not connected to the service/);
    },
  );

  it('When the shop owner deletes the plugin, then it disconnects the store and leaves no options, keys or webhooks behind', async () => {
    await admin.goto(`${STORE_URL}/wp-admin/admin.php?page=rps-recurring-payments`);
    await expect(statusAfterClick(admin, 'Connect this store')).resolves.toBe(
      'Store connected; the service hears of every change at once.',
    );
    expect(pluginKeys()).toHaveLength(1);
    // A subscription callback handled a while ago (one row per event id) and the daily prune that forgets them.
    storeQuery("INSERT INTO wp_options (option_name, option_value, autoload) VALUES ('rps_event_evt_suite', UNIX_TIMESTAMP(), 'off')");
    const cron = () => storeQuery("SELECT option_value FROM wp_options WHERE option_name = 'cron'")[0]?.[0] ?? '';
    expect(cron()).toContain('rps_prune_handled_events');

    await admin.goto(`${STORE_URL}/wp-admin/plugins.php`);
    const row = admin.locator('tr[data-slug="recurring-payments-bridge"]');
    await Promise.all([admin.waitForURL(/plugins\.php\?deactivate=true/), row.locator('.deactivate a').click()]);
    await row.locator('.delete a').click();
    await admin.locator('tr.plugin-deleted-tr').waitFor({ timeout: 30_000 });

    expect(existsSync(path.join(DOCROOT, 'wp-content/plugins/recurring-payments-bridge'))).toBe(false);
    expect(
      storeQuery(
        "SELECT option_name FROM wp_options WHERE option_name IN ('rps_connection', 'rps_sync_runs', 'woocommerce_rps_settings', " +
          "'rps_account_endpoint') OR option_name LIKE 'rps\\_event\\_%'",
      ),
    ).toEqual([]);
    expect(cron()).not.toContain('rps_prune_handled_events');
    expect(pluginKeys()).toEqual([]);
    expect((await api('GET', '/api/v2/shop')).body).toMatchObject({ status: 'disconnected' });
    expect(await ourWebhooks()).toEqual([]);
  });
});

import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { ROOT, STATE, STORE_URL } from './config';

export { launchChromium } from '../../support/chromium';

const ARTIFACTS = path.join(ROOT, 'test', 'artifacts');

/** A new browser session logged in to wp-admin as setup's admin user. */
export async function adminPage(browser: Browser): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await page.goto(`${STORE_URL}/wp-login.php`);
  await page.fill('#user_login', 'admin');
  await page.fill('#user_pass', readFileSync(path.join(STATE, 'admin-password'), 'utf8').trim());
  await Promise.all([page.waitForURL(/\/wp-admin\//), page.click('#wp-submit')]);
  return page;
}

/** A new browser session logged in at /wp-login.php as a customer of the store (one with an account). */
export async function customerPage(browser: Browser, login: string, password: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await page.goto(`${STORE_URL}/wp-login.php`);
  await page.fill('#user_login', login);
  await page.fill('#user_pass', password);
  // WordPress sends a customer to My Account (WooCommerce keeps them out of wp-admin).
  await Promise.all([page.waitForURL((url) => !url.pathname.startsWith('/wp-login.php')), page.click('#wp-submit')]);
  return page;
}

/** A buyer's own browser session (its own cart), with the product in the cart. */
export async function buyerWithCart(browser: Browser, productId: number): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await page.goto(`${STORE_URL}/?add-to-cart=${productId}`);
  return page;
}

export const BUYER = {
  firstName: 'Anna',
  lastName: 'de Vries',
  address: 'Keizersgracht 1',
  postcode: '1015 CJ',
  city: 'Amsterdam',
  phone: '0612345678',
};

/** The classic checkout (shortcode): the billing form filled in, our gateway chosen, "Place order". */
export async function placeClassicOrder(page: Page, email: string): Promise<void> {
  await page.goto(`${STORE_URL}/checkout/`);
  await page.fill('#billing_first_name', BUYER.firstName);
  await page.fill('#billing_last_name', BUYER.lastName);
  await page.fill('#billing_address_1', BUYER.address);
  await page.fill('#billing_postcode', BUYER.postcode);
  await page.fill('#billing_city', BUYER.city);
  await page.fill('#billing_phone', BUYER.phone);
  await page.fill('#billing_email', email);
  await page.check('#payment_method_rps');
  await page.locator('#rps-methods input[value=ideal]').check();
  await Promise.all([page.waitForURL(/\/sandbox\/checkout\/tr_/, { timeout: 60_000 }), page.click('#place_order')]);
}

/** The sandbox's hosted checkout: the buyer picks how the payment ends and is sent back to the store. */
export async function finishOnSandbox(page: Page, outcome: 'paid' | 'failed' | 'canceled' | 'expired'): Promise<void> {
  await Promise.all([page.waitForURL(new RegExp(`^${STORE_URL}/`), { timeout: 60_000 }), page.click(`button[value=${outcome}]`)]);
}

/** The order id in an order-received or order-pay address. */
export function orderIdOf(url: string): number {
  const match = /\/(?:order-received|order-pay)\/(\d+)\//.exec(url);
  if (!match) throw new Error(`no order in ${url}`);
  return Number(match[1]);
}

/**
 * WooCommerce's Checkout block: the contact and address fields (shipping, or billing for a cart
 * that ships nothing), our payment method chosen, "Place order". Opening it makes the cart's
 * checkout-draft order.
 */
export async function openBlockCheckout(page: Page): Promise<void> {
  await page.goto(`${STORE_URL}/checkout/`);
  await page.locator('#email').waitFor({ timeout: 30_000 });
}

export async function placeBlockOrder(page: Page, email: string): Promise<void> {
  await page.fill('#email', email);
  // The shipping address for a cart that ships (billing: the same), else the billing address.
  const field = (name: string) => page.locator(`input[id$="-${name}"]`).filter({ visible: true }).first();
  await field('first_name').fill(BUYER.firstName);
  await field('last_name').fill(BUYER.lastName);
  await field('address_1').fill(BUYER.address);
  await field('postcode').fill(BUYER.postcode);
  await field('city').fill(BUYER.city);
  await page.locator('#radio-control-wc-payment-method-options-rps').check();
  await page.locator('input[name=rps_method][value=ideal]').check();
  // The block saves the address to the cart as it is typed (Store API calls): let those finish first.
  await page.locator('input[id$="-city"]').filter({ visible: true }).first().blur();
  await page.waitForLoadState('networkidle');
  const placeOrder = page.locator('.wc-block-components-checkout-place-order-button');
  await Promise.all([page.waitForURL(/\/sandbox\/checkout\/tr_/, { timeout: 60_000 }), placeOrder.click()]).catch(
    async (error: unknown) => {
      await snapshot(page, 'block-checkout');
      const button = await placeOrder.evaluate((element) => element.outerHTML).catch(() => '?');
      const alerts = await page.locator('[role=alert], .wc-block-components-validation-error').allTextContents();
      throw new Error(`${String(error)}; the button: ${button}; alerts: ${alerts.join(' | ')}`);
    },
  );
}

/** A screenshot in test/artifacts/ (kept by CI), for a failure's what-did-the-buyer-see. */
export async function snapshot(page: Page, name: string): Promise<void> {
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: path.join(ARTIFACTS, `store-${name}.png`), fullPage: true });
}

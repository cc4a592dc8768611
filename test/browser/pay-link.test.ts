import { mkdirSync } from 'node:fs';
import type { Server as HttpServer } from 'node:http';
import path from 'node:path';
import express from 'express';
import type { Browser } from 'playwright-core';
import { createTestApp, type TestApp } from '../support/testApp';
import { freePort } from '../../fakes/ports';
import { ARTIFACTS, describeWithChromium, launchChromium, seriousViolations } from '../support/chromium';

/**
 * A buyer in real headless Chromium: opens a subscription link, fills in the form with the keyboard,
 * pays (or fails) on the sandbox checkout and lands on the shop's page; then the API shows the
 * result. axe-core checks the page and the 410 page. Screenshots go to test/artifacts/ (git-ignored).
 * CI installs Debian's chromium (.ci/run); without it these tests are skipped, saying so.
 */
describeWithChromium('paying a subscription link in a browser', () => {
  jest.setTimeout(120_000);
  let t: TestApp;
  let server: HttpServer;
  let origin: string;
  let browser: Browser;
  let token: string;

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    const port = await freePort();
    origin = `http://127.0.0.1:${port}`;
    t = await createTestApp('sqlite', { env: { PUBLIC_URL: origin } });
    ({ token } = await t.newAccount('Browser Coffee'));
    const outer = express();
    // The shop's own pages the buyer is sent back to.
    outer.get('/test-landing/:outcome', (req, res) => {
      res
        .type('html')
        .send(
          `<!doctype html><html lang="en"><head><title>Shop</title></head><body><main><h1>Shop: ` +
            `${req.params.outcome}</h1></main></body></html>`,
        );
    });
    outer.use((req, res, next) => t.app(req, res, next));
    server = await new Promise<HttpServer>((resolve) => {
      const listening = outer.listen(port, '127.0.0.1', () => resolve(listening));
    });
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    await t?.close();
  });

  async function subscriptionLink() {
    const res = await t.as(token).post('/api/v2/links', {
      type: 'subscription',
      description: 'Coffee club',
      first_amount: 5,
      rules: [{ amount: 9.95, interval: 'month', interval_amount: 1 }],
      trial_interval: '14 days',
      redirect_url_paid: `${origin}/test-landing/paid`,
      redirect_url_failed: `${origin}/test-landing/failed`,
    });
    expect(res.status).toBe(201);
    return res.body as { id: string; url: string };
  }

  /** The buyer: opens the link, types name and e-mail, presses pay, picks `outcome` on the sandbox checkout. */
  async function payInBrowser(url: string, outcome: 'paid' | 'failed', screenshots: boolean) {
    const context = await browser.newContext({ locale: 'en-GB', viewport: { width: 375, height: 812 }, bypassCSP: false });
    const page = await context.newPage();
    try {
      await page.goto(url);
      if (screenshots) {
        await page.screenshot({ path: path.join(ARTIFACTS, 'pay-375.png'), fullPage: true });
        await page.setViewportSize({ width: 1280, height: 900 });
        await page.screenshot({ path: path.join(ARTIFACTS, 'pay-1280.png'), fullPage: true });
      }
      await page.getByLabel('First name').focus();
      await page.keyboard.type('Anna');
      await page.keyboard.press('Tab');
      await page.keyboard.type('de Vries');
      await page.keyboard.press('Tab');
      await page.keyboard.type('anna@example.nl');
      await page.keyboard.press('Tab');
      await Promise.all([page.waitForURL(/\/sandbox\/checkout\//), page.keyboard.press('Enter')]);
      await Promise.all([
        page.waitForURL(new RegExp(`/test-landing/${outcome}$`)),
        page.getByRole('button', { name: outcome, exact: true }).click(),
      ]);
      return (await page.textContent('h1')) ?? '';
    } finally {
      await context.close();
    }
  }

  it(
    'When the buyer pays, then they land on redirect_url_paid and the API shows the link paid with an active subscription on a valid ' +
      'mandate',
    async () => {
      const link = await subscriptionLink();
      expect(await payInBrowser(link.url, 'paid', true)).toBe('Shop: paid');

      const res = await t.as(token).get(`/api/v2/links/${link.id}`);
      expect(res.body).toMatchObject({
        status: 'paid',
        customer: { first_name: 'Anna', email: 'anna@example.nl' },
        subscription: { status: 'active', next_amount: '9.95' },
      });
      const mandate = await t.ctx.db('mandates').where({ id: res.body.subscription.provider_mandate_id }).first();
      expect(mandate).toMatchObject({ status: 'valid', customer_id: res.body.customer.id });
    },
  );

  it('When the payment fails, then the buyer lands on redirect_url_failed and there is no subscription', async () => {
    const link = await subscriptionLink();
    expect(await payInBrowser(link.url, 'failed', false)).toBe('Shop: failed');
    const res = await t.as(token).get(`/api/v2/links/${link.id}`);
    expect(res.body).toMatchObject({ status: 'open', subscription: null });
  });

  it('When axe-core checks the pay page and the 410 page, then it finds nothing serious or critical', async () => {
    const link = await subscriptionLink();
    // Playwright injects axe past our CSP (the pages themselves allow no script).
    const context = await browser.newContext({ bypassCSP: true, locale: 'nl-NL' });
    const page = await context.newPage();
    try {
      await page.goto(link.url);
      expect(await seriousViolations(page)).toEqual([]);
      await t.as(token).delete(`/api/v2/links/${link.id}`);
      const gone = await page.goto(link.url);
      expect(gone?.status()).toBe(410);
      expect(await seriousViolations(page)).toEqual([]);
      await page.screenshot({ path: path.join(ARTIFACTS, 'pay-410.png') });
    } finally {
      await context.close();
    }
  });
});

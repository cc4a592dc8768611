import { mkdirSync } from 'node:fs';
import type { Server as HttpServer } from 'node:http';
import path from 'node:path';
import express from 'express';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { freePort } from '../../fakes/ports';
import { mandateLabel } from '../../src/modules/mandates/display';
import type { MandateRow } from '../../src/modules/mandates/repository';
import { subscribe } from '../support/billing';
import { ARTIFACTS, describeWithChromium, launchChromium, seriousViolations, type AxeViolation } from '../support/chromium';
import { createTestApp, type TestApp } from '../support/testApp';

/**
 * A customer in real headless Chromium in the self-service portal: opens the shop's session link,
 * sees the subscriptions and the masked mandate, pauses and resumes, skips a charge, changes the
 * payment method (pays the 0.01 at the sandbox checkout) and sees the new mandate on every
 * subscription, cancels; and logs in by e-mail. axe-core checks every portal page. Screenshots at
 * 375 and 1280 px go to test/artifacts/ (git-ignored). Without Chromium these tests are skipped,
 * saying so.
 */
describeWithChromium('the customer portal in a browser', () => {
  jest.setTimeout(120_000);
  let t: TestApp;
  let server: HttpServer;
  let origin: string;
  let browser: Browser;
  let token: string;
  let customerId: string;
  let subscriptionIds: string[];
  let oldMandateId: string;
  const email = 'portal-browser@example.nl';

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    const port = await freePort();
    origin = `http://127.0.0.1:${port}`;
    t = await createTestApp('sqlite', { env: { PUBLIC_URL: origin } });
    let accountId: string;
    ({ token, accountId } = await t.newAccount('Browser Portal Coffee'));
    await t.ctx.db('accounts').where({ id: accountId }).update({ display_name: 'Koffie & Co', contact_email: 'help@koffie.example' });
    const first = await subscribe(t, token, { email });
    const tea = await t.as(token).post('/api/v2/subscriptions', {
      name: 'Tea box',
      customer_id: first.customerId,
      provider_profile_id: 'pfl_test123456',
      provider_mandate_id: first.mandateId,
      start_date: '2026-12-01',
      rules: [{ amount: 7.5, interval: 'month', interval_amount: 1, times: 6 }],
    });
    expect(tea.status).toBe(201);
    customerId = first.customerId;
    subscriptionIds = [first.subscriptionId, tea.body.id];
    oldMandateId = first.mandateId;
    const outer = express();
    // The shop's own page "back to the shop" goes to.
    outer.get('/test-shop', (_req, res) => {
      res
        .type('html')
        .send('<!doctype html><html lang="en"><head><title>Shop</title></head><body><main><h1>Shop</h1></main></body></html>');
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

  /** What the shop does when the customer clicks "manage my subscriptions": a session link from the API. */
  async function sessionLink(): Promise<string> {
    const res = await t
      .as(token)
      .post(`/api/v2/customers/${customerId}/portal-sessions`, { return_url: `${origin}/test-shop`, locale: 'en' });
    expect(res.status).toBe(201);
    return res.body.url as string;
  }

  async function withContext<T>(options: { bypassCSP: boolean }, work: (page: Page, context: BrowserContext) => Promise<T>): Promise<T> {
    const context = await browser.newContext({ locale: 'en-GB', viewport: { width: 375, height: 812 }, ...options });
    try {
      return await work(await context.newPage(), context);
    } finally {
      await context.close();
    }
  }

  /** The subscription section of one subscription on the overview. */
  const card = (page: Page, name: string) => page.locator('section.subscription', { has: page.getByRole('heading', { name }) });

  it(
    'When the customer opens the session link, then they see their subscriptions with the masked mandate, pause and resume, ' +
      'skip a charge, change the payment method at the sandbox checkout and see it on every subscription, and cancel',
    async () => {
      await withContext({ bypassCSP: false }, async (page) => {
        await page.goto(await sessionLink());
        await page.waitForURL(`${origin}/portal/`);
        await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Your subscriptions');
        await expect(page.locator('.merchant-name').textContent()).resolves.toBe('Koffie & Co');
        const coffee = card(page, 'Coffee box');
        await expect(coffee.textContent()).resolves.toContain('NL** **** **** **43 00');
        await expect(card(page, 'Tea box').textContent()).resolves.toContain('6 more');
        await page.screenshot({ path: path.join(ARTIFACTS, 'portal-overview-375.png'), fullPage: true });
        await page.setViewportSize({ width: 1280, height: 900 });
        await page.screenshot({ path: path.join(ARTIFACTS, 'portal-overview-1280.png'), fullPage: true });
        await page.setViewportSize({ width: 375, height: 812 });

        // Pause until mid-January, then resume.
        await coffee.getByRole('link', { name: 'Pause (Coffee box)' }).click();
        await page.getByLabel('Pause until').fill('2027-01-15');
        await Promise.all([page.waitForURL(/done=paused$/), page.getByRole('button', { name: 'Pause subscription' }).click()]);
        await expect(coffee.textContent()).resolves.toContain('Paused until January 15, 2027.');
        await coffee.getByRole('link', { name: 'Resume (Coffee box)' }).click();
        await Promise.all([page.waitForURL(/done=resumed$/), page.getByRole('button', { name: 'Resume subscription' }).click()]);
        await expect(coffee.locator('dd').first().textContent()).resolves.toBe('Active');

        // Skip December's charge.
        await coffee.getByRole('link', { name: 'Skip the next charge (Coffee box)' }).click();
        await Promise.all([page.waitForURL(/done=skipped$/), page.getByRole('button', { name: 'Skip this charge' }).click()]);
        await expect(coffee.textContent()).resolves.toContain('January 1, 2027: €12.50');

        // A new payment method for every subscription: 0.01 at the sandbox checkout, and back to the portal.
        await coffee.getByRole('link', { name: 'Change payment method (Coffee box)' }).click();
        await page.getByLabel('All my subscriptions').check();
        await page.setViewportSize({ width: 1280, height: 900 });
        await page.screenshot({ path: path.join(ARTIFACTS, 'portal-change-method-1280.png'), fullPage: true });
        await page.setViewportSize({ width: 375, height: 812 });
        await Promise.all([page.waitForURL(/\/pay\/lnk_/), page.getByRole('button', { name: 'Continue to payment' }).click()]);
        await Promise.all([page.waitForURL(/\/sandbox\/checkout\//), page.getByRole('button', { name: 'Pay €0.01' }).click()]);
        await Promise.all([page.waitForURL(/\/portal\/\?done=method$/), page.getByRole('button', { name: 'paid', exact: true }).click()]);
        const rows = await t.ctx.db('subscriptions').whereIn('id', subscriptionIds);
        const newMandateId = rows[0].provider_mandate_id as string;
        expect(newMandateId).not.toBe(oldMandateId);
        expect(rows.map((row) => row.provider_mandate_id)).toEqual([newMandateId, newMandateId]);
        const label = mandateLabel((await t.ctx.db('mandates').where({ id: newMandateId }).first()) as MandateRow);
        expect(label).not.toBe('NL** **** **** **43 00');
        for (const name of ['Coffee box', 'Tea box']) await expect(card(page, name).textContent()).resolves.toContain(label);

        // Cancel the tea at the end of its paid period.
        const tea = card(page, 'Tea box');
        await tea.getByRole('link', { name: 'Cancel (Tea box)' }).click();
        await page.getByLabel('Why are you cancelling? (optional)').fill('I drink coffee now');
        await Promise.all([page.waitForURL(/done=cancelled$/), page.getByRole('button', { name: 'Cancel subscription' }).click()]);
        await expect(tea.textContent()).resolves.toContain('Ends on December 1, 2026');
        await page.screenshot({ path: path.join(ARTIFACTS, 'portal-after-actions-375.png'), fullPage: true });

        // Back to the shop, and the templates the actions queued.
        await Promise.all([page.waitForURL(`${origin}/test-shop`), page.getByRole('link', { name: 'Back to the shop' }).click()]);
      });
      const templates = await t.ctx.db('outgoing_mails').where({ recipient: email }).orderBy('created_at').pluck('template');
      expect(templates).toEqual(['portal-paused', 'portal-resumed', 'portal-skipped', 'portal-method-changed', 'portal-cancelled']);
    },
  );

  it('When the customer asks for a log-in link by e-mail, then the link from the mail opens the portal, and log-out ends it', async () => {
    await withContext({ bypassCSP: false }, async (page) => {
      await page.goto(`${origin}/portal`);
      await page.getByLabel('E-mail address').fill(email);
      await page.getByRole('button', { name: 'Send me a log-in link' }).click();
      await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Check your e-mail');
      await t.ctx.background.idle();
      const mail = await t.ctx
        .db('outgoing_mails')
        .where({ recipient: email, template: 'portal-login' })
        .orderBy('created_at', 'desc')
        .first();
      const link = new RegExp(`${origin.replace(/\./g, '\\.')}/portal/session/[A-Za-z0-9_-]+`).exec(mail.text_body)?.[0];
      expect(link).toBeTruthy();
      await page.goto(link as string);
      await Promise.all([page.waitForURL(`${origin}/portal/`), page.getByRole('button', { name: 'Log in' }).click()]);
      await expect(card(page, 'Coffee box').textContent()).resolves.toContain('Coffee box');
      await Promise.all([page.waitForURL(/\/portal\?logged_out=1$/), page.getByRole('button', { name: 'Log out' }).click()]);
      const again = await page.goto(`${origin}/portal/subscriptions/${subscriptionIds[0]}/pause`);
      expect(again?.url()).not.toContain('/pause');
    });
  });

  it('When axe-core checks every portal page, then it finds nothing serious or critical', async () => {
    // Playwright injects axe past our CSP (the pages themselves allow no script).
    await withContext({ bypassCSP: true }, async (page) => {
      const checked: Array<{ url: string; violations: AxeViolation[] }> = [];
      const check = async () => checked.push({ url: page.url(), violations: await seriousViolations(page) });
      await page.goto(`${origin}/portal`);
      await check();
      await page.getByRole('button', { name: 'Send me a log-in link' }).click(); // empty: the form with its error
      await check();
      await page.goto(await sessionLink());
      await page.waitForURL(`${origin}/portal/`);
      await check();
      const [coffee] = subscriptionIds;
      for (const path_ of [
        `/portal/subscriptions/${coffee}/pause`,
        `/portal/subscriptions/${coffee}/skip`,
        `/portal/subscriptions/${coffee}/cancel`,
        `/portal/payment-method?subscription=${coffee}`,
        '/portal/subscriptions/sub_unknown/cancel',
      ]) {
        await page.goto(`${origin}${path_}`);
        await check();
      }
      await page.goto(`${origin}/portal/subscriptions/${coffee}/pause`);
      await page.getByLabel('Pause until').fill('2030-01-01');
      await page.getByRole('button', { name: 'Pause subscription' }).click();
      await expect(page.locator('#until-error').textContent()).resolves.toContain('Please choose a date on or before');
      await check();
      await page.setViewportSize({ width: 1280, height: 900 });
      await page.screenshot({ path: path.join(ARTIFACTS, 'portal-pause-error-1280.png'), fullPage: true });
      expect(checked.filter((entry) => entry.violations.length)).toEqual([]);
      expect(checked).toHaveLength(9);
    });
  });
});

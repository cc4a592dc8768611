import type { Express } from 'express';
import request from 'supertest';
import { TEST_PUBLIC_URL, type TestApp } from './testApp';
import { WooSimulator, type WebhookTransport } from '../../fakes/woocommerce/simulator';

/** The store's webhook requests to PUBLIC_URL, posted to the app in-process; any other address answers nothing (0). */
export function inProcessWebhooks(app: () => Express): WebhookTransport {
  return async (url, headers, body) => {
    if (!url.startsWith(`${TEST_PUBLIC_URL}/`)) return 0;
    let test = request(app()).post(url.slice(TEST_PUBLIC_URL.length));
    for (const [name, value] of Object.entries(headers)) test = test.set(name, value);
    return (await test.send(body)).status;
  };
}

/** A started store simulator, connected to the account of `token` through `POST /api/v2/shop`; its webhooks reach the app. */
export async function connectedSimulatorStore(t: TestApp, token: string): Promise<WooSimulator> {
  const store = new WooSimulator();
  store.transport = inProcessWebhooks(() => t.app);
  await store.start();
  const connected = await t
    .as(token)
    .post('/api/v2/shop', { url: store.url, consumer_key: store.consumerKey, consumer_secret: store.consumerSecret });
  expect(connected.status).toBe(200);
  return store;
}

/** What useConnectedStore gives each test: its account, that account's token and the store connected to it. */
export interface ConnectedAccount {
  token: string;
  accountId: string;
  store: WooSimulator;
}

/**
 * A new account (named `name`, or the test app's default) with a simulator store connected to it:
 * the preamble of most store tests. The caller stops the store (after the app's background work).
 */
export async function accountWithConnectedStore(t: TestApp, name?: string): Promise<ConnectedAccount> {
  const { token, accountId } = await t.newAccount(name);
  return { token, accountId, store: await connectedSimulatorStore(t, token) };
}

/**
 * Per test: a new account with a simulator store connected to it, stopped after the test once the
 * app's background work is done. Read the fields inside a test or a later beforeEach (they are set
 * in this beforeEach, which runs first).
 */
export function useConnectedStore(t: TestApp): ConnectedAccount {
  const current: Partial<ConnectedAccount> = {};
  beforeEach(async () => {
    Object.assign(current, await accountWithConnectedStore(t));
  });
  afterEach(async () => {
    await t.ctx.background.idle();
    await current.store?.stop();
  });
  const field = <K extends keyof ConnectedAccount>(key: K): ConnectedAccount[K] => {
    const value = current[key];
    if (value === undefined) throw new Error(`useConnectedStore: ${key} is read before its beforeEach ran`);
    return value as ConnectedAccount[K];
  };
  return {
    get token() {
      return field('token');
    },
    get accountId() {
      return field('accountId');
    },
    get store() {
      return field('store');
    },
  };
}

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

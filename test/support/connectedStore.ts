import type { TestApp } from './testApp';
import { WooSimulator } from '../../fakes/woocommerce/simulator';

/** A started store simulator, connected to the account of `token` through `POST /api/v2/shop`. */
export async function connectedSimulatorStore(t: TestApp, token: string): Promise<WooSimulator> {
  const store = new WooSimulator();
  await store.start();
  const connected = await t
    .as(token)
    .post('/api/v2/shop', { url: store.url, consumer_key: store.consumerKey, consumer_secret: store.consumerSecret });
  expect(connected.status).toBe(200);
  return store;
}

import { z } from 'zod';
import { ShopApiError, StoreConnectionRefused } from '../errors';
import type { WooClient } from './client';
import { wooIndex, wooWebhook } from './schemas';

/** The store events the service listens to: products and orders, made, changed and deleted. */
export const WEBHOOK_TOPICS = [
  'product.created',
  'product.updated',
  'product.deleted',
  'order.created',
  'order.updated',
  'order.deleted',
] as const;

/** What the merchant must fix when the store refuses to be connected, in WordPress's own words. */
function refusal(error: unknown): never {
  if (!(error instanceof ShopApiError)) throw error;
  switch (error.kind) {
    case 'unauthorized':
      throw new StoreConnectionRefused('consumer_secret', `The store refused the consumer key or secret: ${error.message}`);
    case 'no_permalinks':
      throw new StoreConnectionRefused(
        'url',
        'No REST API answered at /wp-json/: enable pretty permalinks (Settings → Permalinks) or check the address.',
      );
    case 'not_woocommerce':
      throw new StoreConnectionRefused('url', 'This WordPress has no WooCommerce REST API (wc/v3): is WooCommerce active?');
    default:
      throw new StoreConnectionRefused('url', `The store could not be used: ${error.message}`);
  }
}

/** One REST call (the API index) proves the address is a WooCommerce store and the keys work. */
export async function verifyStore(client: WooClient): Promise<void> {
  await client.get('', wooIndex).catch(refusal);
}

export async function registerWebhooks(client: WooClient, deliveryUrl: string, secret: string): Promise<number[]> {
  const ids: number[] = [];
  for (const topic of WEBHOOK_TOPICS) {
    const { body } = await client.post(
      'webhooks',
      { name: `Recurring payments: ${topic}`, topic, delivery_url: deliveryUrl, secret, status: 'active' },
      wooWebhook,
    );
    ids.push(body.id);
  }
  return ids;
}

export async function removeWebhooks(client: WooClient, ids: readonly number[]): Promise<void> {
  for (const id of ids) {
    try {
      await client.delete(`webhooks/${id}`, z.unknown(), { force: true });
    } catch (error) {
      // Removed by hand in the store already: nothing left to remove.
      if (!(error instanceof ShopApiError && error.status === 404)) throw error;
    }
  }
}

import { z } from 'zod';
import type { ShopConnectionCheck } from '../platform';
import { WooClient, type WooClientOptions, type WooCredentials } from './client';
import { ShopApiError } from '../errors';
import { wooIndex, wooWebhook } from './schemas';

/** Connecting a WooCommerce store: one REST call proves the keys, then our webhooks are registered. */
export class WooConnection implements ShopConnectionCheck {
  private readonly client: WooClient;

  constructor(credentials: WooCredentials, options: WooClientOptions = {}) {
    this.client = new WooClient(credentials, { retries: 1, ...options });
  }

  async verify(): Promise<void> {
    await this.client.get('', wooIndex);
  }

  async registerWebhooks(topics: readonly string[], deliveryUrl: string, secret: string): Promise<number[]> {
    const ids: number[] = [];
    for (const topic of topics) {
      const { body } = await this.client.post('webhooks', { name: `Recurring payments: ${topic}`, topic, delivery_url: deliveryUrl, secret, status: 'active' }, wooWebhook);
      ids.push(body.id);
    }
    return ids;
  }

  async removeWebhooks(ids: readonly number[]): Promise<void> {
    for (const id of ids) {
      try {
        await this.client.delete(`webhooks/${id}`, z.unknown(), { force: true });
      } catch (error) {
        // Removed by hand in the store already: nothing left to remove.
        if (!(error instanceof ShopApiError && error.status === 404)) throw error;
      }
    }
  }
}

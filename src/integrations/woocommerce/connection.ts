import { z } from 'zod';
import { ShopApiError, StoreConnectionRefused } from '../errors';
import type { StoreWebhookStatus } from '../platform';
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

const webhookBody = (topic: string, deliveryUrl: string, secret: string) => ({
  name: `Recurring payments: ${topic}`,
  topic,
  delivery_url: deliveryUrl,
  secret,
  status: 'active',
});

/**
 * One webhook per topic. The store pings each new one (a form POST `webhook_id=N`) before it answers,
 * and creates it whatever the ping's outcome: whether the ping reached us is the caller's evidence.
 */
export async function registerWebhooks(client: WooClient, deliveryUrl: string, secret: string): Promise<number[]> {
  const ids: number[] = [];
  for (const topic of WEBHOOK_TOPICS) {
    const { body } = await client.post('webhooks', webhookBody(topic, deliveryUrl, secret), wooWebhook);
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

const STATUSES = ['active', 'paused', 'disabled'] as const;
const statusOf = (status: string): StoreWebhookStatus['status'] =>
  (STATUSES as readonly string[]).includes(status) ? (status as StoreWebhookStatus['status']) : 'disabled';

/** One call: our webhooks by id, whatever their status (`status=all`); a topic none of them has is missing. */
export async function checkWebhooks(client: WooClient, ids: readonly number[]): Promise<StoreWebhookStatus[]> {
  const found =
    ids.length === 0
      ? []
      : (await client.get('webhooks', z.array(wooWebhook), { include: ids.join(','), status: 'all', per_page: 100 })).body.filter((hook) =>
          ids.includes(hook.id),
        );
  return WEBHOOK_TOPICS.map((topic) => {
    const hook = found.find((candidate) => candidate.topic === topic);
    return hook ? { topic, id: hook.id, status: statusOf(hook.status) } : { topic, id: null, status: 'missing' };
  });
}

/**
 * WooCommerce keeps a disabled webhook disabled until someone sets it active again (`PUT
 * webhooks/{id}`), and one removed by hand is gone: it is created again (the store pings it).
 */
export async function repairWebhooks(
  client: WooClient,
  seen: readonly StoreWebhookStatus[],
  deliveryUrl: string,
  secret: string,
): Promise<StoreWebhookStatus[]> {
  const repaired: StoreWebhookStatus[] = [];
  for (const hook of seen) {
    if (hook.status === 'active') repaired.push(hook);
    else if (hook.id !== null) {
      const { body } = await client.put(`webhooks/${hook.id}`, { status: 'active' }, wooWebhook);
      repaired.push({ topic: hook.topic, id: body.id, status: statusOf(body.status) });
    } else {
      const { body } = await client.post('webhooks', webhookBody(hook.topic, deliveryUrl, secret), wooWebhook);
      repaired.push({ topic: hook.topic, id: body.id, status: statusOf(body.status) });
    }
  }
  return repaired;
}

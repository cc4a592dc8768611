import { createHash } from 'node:crypto';
import type { DeliveryHeaders, StoreChange, StoreDelivery } from '../platform';
import { mapOrder } from './orderMapping';
import { isVariable, isVariation, mapProduct } from './productMapping';
import { wooOrder, wooProduct } from './schemas';
import { validWooSignature } from './signature';

const header = (headers: DeliveryHeaders, name: string): string | undefined => {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
};

/** A new webhook's first call: form-encoded `webhook_id=N`, unsigned. Only a 200 keeps it active. */
const isPing = (raw: Buffer, signature: string | undefined) => !signature && /^webhook_id=\d+$/.test(raw.toString('utf8').trim());

function changeOf(topic: string, body: unknown, resourceId: string | null): StoreChange {
  const storeId = resourceId && /^\d+$/.test(resourceId) ? Number(resourceId) : null;
  if (topic === 'product.created' || topic === 'product.updated') {
    // A variation's body (WooCommerce sends one when a variation is saved, and its product's too) does
    // not say its product's name: both are read from the store, with all of the product's variations.
    const parsed = wooProduct.safeParse(body);
    if (parsed.success && isVariation(parsed.data)) return { type: 'product.variations', shopProductId: parsed.data.parent_id };
    if (parsed.success && isVariable(parsed.data)) return { type: 'product.variations', shopProductId: parsed.data.id };
    return { type: 'product.saved', read: () => mapProduct(wooProduct.parse(body)) };
  }
  if (topic === 'product.deleted' && storeId !== null) return { type: 'product.deleted', shopProductId: storeId };
  if (topic === 'order.created' || topic === 'order.updated') return { type: 'order.saved', read: () => mapOrder(wooOrder.parse(body)) };
  if (topic === 'order.deleted' && storeId !== null) return { type: 'order.deleted', shopOrderId: storeId };
  return { type: 'other' };
}

/**
 * What identifies a delivery's content: its topic, the resource's id and the store's modification time
 * of it, and a hash of the raw body. Not the delivery id: WooCommerce makes it from the webhook id and
 * the current second, so a batch of deliveries sent in one second share it. The body's hash tells apart
 * two changes of one resource within the same second (`date_modified_gmt` counts whole seconds); a
 * delivery sent again carries the same body.
 */
function contentKeyOf(topic: string, resourceId: string | null, body: unknown, raw: Buffer): string {
  const modified =
    typeof body === 'object' && body !== null && 'date_modified_gmt' in body
      ? (body as { date_modified_gmt: unknown }).date_modified_gmt
      : null;
  const hash = createHash('sha256').update(raw).digest('hex');
  return [topic.slice(0, 40), (resourceId ?? '').slice(0, 40), typeof modified === 'string' ? modified.slice(0, 19) : '', hash].join('|');
}

/**
 * A WooCommerce webhook delivery: signed with base64(HMAC-SHA256(raw body, secret)) in
 * `X-WC-Webhook-Signature`, its topic in `X-WC-Webhook-Topic` and its id in `X-WC-Webhook-Delivery-ID`.
 */
export function parseDelivery(raw: Buffer, headers: DeliveryHeaders, secret: string): StoreDelivery {
  const signature = header(headers, 'x-wc-webhook-signature');
  const topic = header(headers, 'x-wc-webhook-topic');
  if (isPing(raw, signature)) return { kind: 'ping' };
  if (!validWooSignature(raw, signature, secret)) return { kind: 'unauthorized', topic };
  let body: unknown;
  try {
    body = JSON.parse(raw.toString('utf8'));
  } catch {
    return { kind: 'unreadable' };
  }
  const resourceId = typeof body === 'object' && body !== null && 'id' in body ? String((body as { id: unknown }).id) : null;
  return {
    kind: 'change',
    deliveryId: header(headers, 'x-wc-webhook-delivery-id') ?? null,
    contentKey: contentKeyOf(topic ?? '', resourceId, body, raw),
    topic: topic ?? '',
    resourceId,
    change: changeOf(topic ?? '', body, resourceId),
  };
}

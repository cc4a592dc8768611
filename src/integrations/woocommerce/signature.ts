import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * WooCommerce signs a delivery with base64(HMAC-SHA256(raw body, webhook secret)) in
 * `X-WC-Webhook-Signature`. Checked on the raw bytes as received, in constant time.
 */
export function validWooSignature(rawBody: Buffer, header: string | undefined, secret: string): boolean {
  if (!header) return false;
  const expected = createHmac('sha256', secret).update(rawBody).digest();
  const given = Buffer.from(header, 'base64');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

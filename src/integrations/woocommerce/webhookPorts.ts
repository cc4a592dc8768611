import { isLocalHost } from '../../net/localHost';

/** The ports WordPress sends webhooks to (`http_allowed_safe_ports`), besides the store's own. */
const WORDPRESS_SAFE_PORTS = [80, 443, 8080];

/**
 * Why stock WordPress would refuse to send webhooks from the store at `storeUrl` to `deliveryUrl`, by
 * its own rule (`wp_http_validate_url`): a loopback or private address of another host than the
 * store's, or a port other than 80, 443 and 8080 unless it is the store's own host and port. Null
 * when the rule lets it through. Only an explanation: a store may allow more (a filter), so whether
 * webhooks arrive is judged by the store's ping alone.
 */
export function wordPressRefusal(deliveryUrl: string, storeUrl: string): string | null {
  const target = new URL(deliveryUrl);
  const store = new URL(storeUrl);
  const sameHost = target.hostname.toLowerCase() === store.hostname.toLowerCase();
  if (!sameHost && isLocalHost(target.hostname)) {
    return (
      `PUBLIC_URL's host ${target.hostname} is a loopback or private address of another host than the store's: ` +
      'WordPress sends no webhooks there'
    );
  }
  if (target.port !== '') {
    const port = Number(target.port);
    if (!WORDPRESS_SAFE_PORTS.includes(port) && !(sameHost && store.port === target.port)) {
      return `PUBLIC_URL's port ${port}: WordPress sends webhooks only to ports 80, 443 and 8080 (or its own host and port)`;
    }
  }
  return null;
}

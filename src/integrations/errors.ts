/**
 * What went wrong talking to a store (any platform). `kind` lets callers (connect, sync) tell the merchant what to
 * fix; `retryable` marks failures a later attempt may cure (429, 5xx, timeouts, dropped connections).
 */
export type ShopErrorKind =
  | 'unreachable' // DNS, refused connection, timeout
  | 'unauthorized' // wrong consumer key or secret (401/403)
  | 'not_woocommerce' // no wc/v3 REST API at this address (404, HTML instead of JSON)
  | 'no_permalinks' // WordPress answers, but /wp-json/ is not routed (plain permalinks)
  | 'rate_limited' // 429
  | 'server_error' // 5xx
  | 'unexpected_answer' // a 2xx whose body is not what wc/v3 answers
  | 'refused'; // another 4xx (a validation error of the store)

export class ShopApiError extends Error {
  constructor(
    readonly kind: ShopErrorKind,
    message: string,
    readonly status: number | null,
    readonly retryAfterMs: number | null = null,
  ) {
    super(message);
    this.name = 'ShopApiError';
  }

  get retryable(): boolean {
    return this.kind === 'unreachable' || this.kind === 'rate_limited' || this.kind === 'server_error';
  }
}

/** The store refused to be connected: `field` of the connect request is what the merchant must fix. */
export class StoreConnectionRefused extends Error {
  constructor(
    readonly field: 'url' | 'consumer_secret',
    message: string,
  ) {
    super(message);
    this.name = 'StoreConnectionRefused';
  }
}

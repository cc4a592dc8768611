import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { AddressNotAllowedError, checkedLookup, isPublicAddress } from '../net/publicAddress';

/**
 * Why an attempt failed, as stored in outbound_events.last_error and shown to the client on
 * GET /api/v2/payments/{id}. A fixed, small set: socket error text (ports, errno, addresses) would
 * make deliveries a port scanner of our network. The detailed cause goes only to the log.
 * - `HTTP <status>`: the receiver answered, but not with a 2xx (a 3xx too: redirects are not followed)
 * - `timed out`: no answer within the attempt's time
 * - `could not connect`: the host did not resolve, refused, was unreachable, or the connection or
 *   TLS broke before an answer
 * - `address not allowed`: the URL leads to a loopback, private, link-local, metadata or otherwise
 *   non-public address (refused before connecting), or is not an http(s) URL
 * - `not sent`: our side failed before sending (e.g. the account's webhook secret cannot be read)
 */
export type AttemptFailure = `HTTP ${number}` | 'timed out' | 'could not connect' | 'address not allowed' | 'not sent';

export interface AttemptResult {
  /** The receiver's status code, when it answered. */
  status: number | null;
  /** Null when the receiver answered 2xx. */
  failure: AttemptFailure | null;
  /** The underlying cause, for the log only. */
  detail: string | null;
}

export interface PostOptions {
  /** OUTBOUND_ALLOW_PRIVATE: off in production, so a client cannot make us call our own network. */
  allowPrivate: boolean;
  timeoutMs: number;
}

class AttemptTimeoutError extends Error {}

const failed = (failure: AttemptFailure, detail: string): AttemptResult => ({ status: null, failure, detail });

/**
 * One POST of a signed event to a client's webhook_url. Redirects are not followed and the answer's
 * body is discarded: only the status code counts.
 */
export function postToWebhookUrl(
  target: string,
  body: string,
  headers: Record<string, string>,
  options: PostOptions,
): Promise<AttemptResult> {
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return Promise.resolve(failed('address not allowed', 'not a URL'));
  }
  const client = url.protocol === 'https:' ? https : url.protocol === 'http:' ? http : null;
  if (!client) return Promise.resolve(failed('address not allowed', `protocol ${url.protocol}`));
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  // Node connects to an IP literal without calling lookup, so a literal is checked here.
  if (isIP(host) && !options.allowPrivate && !isPublicAddress(host))
    return Promise.resolve(failed('address not allowed', `address ${host}`));

  return new Promise<AttemptResult>((settle) => {
    let settled = false;
    const finish = (result: AttemptResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      settle(result);
    };
    const request = client.request(
      {
        method: 'POST',
        hostname: host,
        port: url.port || undefined,
        path: `${url.pathname}${url.search}`,
        headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)) },
        lookup: checkedLookup(options.allowPrivate),
        agent: false, // a fresh connection per attempt: no pooled socket outlives its check
      },
      (response: IncomingMessage) => {
        const status = response.statusCode ?? 0;
        response.destroy();
        const ok = status >= 200 && status < 300;
        finish({ status, failure: ok ? null : `HTTP ${status}`, detail: ok ? null : `HTTP ${status}` });
      },
    );
    const timer = setTimeout(() => request.destroy(new AttemptTimeoutError(`no answer within ${options.timeoutMs} ms`)), options.timeoutMs);
    request.on('error', (error: Error) => {
      if (error instanceof AddressNotAllowedError) finish(failed('address not allowed', error.message));
      else if (error instanceof AttemptTimeoutError) finish(failed('timed out', error.message));
      else finish(failed('could not connect', error.message));
    });
    request.end(body);
  });
}

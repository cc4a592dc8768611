import type { Logger } from '../../logger';
import { errorMessage } from '../../errors';
import { monotonicMs } from '../../time/elapsed';

/**
 * Where requests are counted per key and fixed window: API tokens per minute, the portal's log-in
 * per address and per IP per hour. In memory by default (one instance, or a limit per instance); in
 * Redis when REDIS_URL is set, so several instances share one limit. Nothing here writes to the
 * database: counting must not cost a write per request.
 */
export interface RateLimitCounter {
  /**
   * Counts one request of `key` in `window` (windows of `windowMs` since the epoch; one minute when
   * not given); answers the count so far.
   */
  hit(key: string, window: number, windowMs?: number): number | Promise<number>;
  /**
   * Takes `key` for `forMs` from `nowMs` if nobody holds it: true when taken now, false while an earlier
   * claim lasts. "At most once per `forMs`", whichever instance asks (the portal's log-in mails).
   */
  claim(key: string, nowMs: number, forMs: number): boolean | Promise<boolean>;
  close(): Promise<void>;
}

const MINUTE_MS = 60_000;

/** Older windows are dropped when the map has grown past this many keys. */
const SWEEP_AT = 10_000;

export function memoryCounter(): RateLimitCounter {
  const windows = new Map<string, { window: number; windowMs: number; hits: number }>();
  const claims = new Map<string, number>();
  return {
    claim(key, nowMs, forMs) {
      const until = claims.get(key);
      if (until !== undefined && until > nowMs) return false;
      if (claims.size >= SWEEP_AT) for (const [other, end] of claims) if (end <= nowMs) claims.delete(other);
      claims.set(key, nowMs + forMs);
      return true;
    },
    hit(key, window, windowMs = MINUTE_MS) {
      const current = windows.get(key);
      if (current && current.window === window && current.windowMs === windowMs) return ++current.hits;
      if (windows.size >= SWEEP_AT) {
        // Windows of different lengths side by side: a key goes once its own window has passed.
        const nowMs = window * windowMs;
        for (const [other, entry] of windows) if ((entry.window + 1) * entry.windowMs <= nowMs) windows.delete(other);
      }
      windows.set(key, { window, windowMs, hits: 1 });
      return 1;
    },
    async close() {
      windows.clear();
      claims.clear();
    },
  };
}

/** Keys live a little past their window, so a clock a few seconds apart between instances does not reset them. */
const REDIS_KEY_GRACE_MS = 30_000;
const REDIS_CONNECT_TIMEOUT_MS = 5_000;
/** A Redis that does not answer within this lets the request through (and says so in the log). */
const REDIS_TIMEOUT_MS = 250;

/**
 * INCR and PEXPIRE in one MULTI per request. When Redis cannot be reached the request is served and
 * the failure logged (at most once a minute): a rate limit is a guard, not a reason to refuse payments.
 */
export async function redisCounter(url: string, logger: Logger): Promise<RateLimitCounter> {
  // Loaded only when REDIS_URL is set: an instance without Redis does not carry the client.
  const { createClient } = await import('redis');
  const client = createClient({ url, socket: { connectTimeout: 2_000, reconnectStrategy: (retries) => Math.min(retries * 200, 5_000) } });
  // No warning yet: the first failure is always logged (a monotonic reading may be under a minute at start).
  let lastWarning = Number.NEGATIVE_INFINITY;
  const warn = (error: unknown) => {
    const now = monotonicMs();
    if (now - lastWarning < 60_000) return;
    lastWarning = now;
    logger.error('rate limit counter (Redis) unavailable; requests are served without a limit', {
      error: errorMessage(error),
    });
  };
  client.on('error', warn);
  // At start a Redis that cannot be reached is a configuration error: fail fast, saying which.
  const connecting = client.connect();
  const gaveUp = new Promise<never>((_, reject) =>
    setTimeout(
      () => reject(new Error(`REDIS_URL: Redis did not answer within ${REDIS_CONNECT_TIMEOUT_MS / 1000} s`)),
      REDIS_CONNECT_TIMEOUT_MS,
    ).unref(),
  );
  try {
    await Promise.race([connecting, gaveUp]);
  } catch (error) {
    client.destroy();
    throw error;
  }
  const withinTimeout = <T>(work: Promise<T>): Promise<T> =>
    Promise.race([
      work,
      new Promise<never>((_, reject) =>
        setTimeout(() => reject(new Error(`no answer within ${REDIS_TIMEOUT_MS} ms`)), REDIS_TIMEOUT_MS).unref(),
      ),
    ]);
  return {
    // SET NX with an expiry: one instance takes the key, the others see it taken until it expires.
    async claim(key, _nowMs, forMs) {
      try {
        const taken = await withinTimeout(
          client.set(`rps:claim:${key}`, '1', { expiration: { type: 'PX', value: forMs }, condition: 'NX' }),
        );
        return taken === 'OK';
      } catch (error) {
        warn(error);
        return true;
      }
    },
    async hit(key, window, windowMs = MINUTE_MS) {
      const name = `rps:rate:${key}:${windowMs === MINUTE_MS ? '' : `${windowMs}:`}${window}`;
      try {
        const timeout = new Promise<never>((_, reject) =>
          setTimeout(() => reject(new Error(`no answer within ${REDIS_TIMEOUT_MS} ms`)), REDIS_TIMEOUT_MS).unref(),
        );
        const [hits] = await Promise.race([
          client
            .multi()
            .incr(name)
            .pExpire(name, windowMs + REDIS_KEY_GRACE_MS)
            .exec(),
          timeout,
        ]);
        return Number(hits);
      } catch (error) {
        warn(error);
        return 0;
      }
    },
    async close() {
      client.destroy();
    },
  };
}

/**
 * Retries in both directions (our events to a client's webhook_url, the provider's calls to us) run
 * for 26 hours, the window a payment provider itself retries its calls in: an outage of many hours loses nothing.
 */
export const RETRY_WINDOW_MS = 26 * 60 * 60 * 1000;

const FIRST_RETRY_MS = 30 * 1000;
const LONGEST_WAIT_MS = 6 * 60 * 60 * 1000;

/**
 * Wait before attempt n+1 after n failed attempts: 30 s, 1 min, 2 min … doubling, at most 6 h.
 * About 15 attempts fit in the window; the last one is at its very end.
 */
export function delayAfterFailedAttempts(attempts: number): number {
  return doublingDelay(attempts, { firstMs: FIRST_RETRY_MS, longestMs: LONGEST_WAIT_MS });
}

/**
 * The wait after `attempts` failed attempts of a retry schedule that doubles: `firstMs` after the first, twice
 * that after the second, and so on, never more than `longestMs`. Each outbox names its own first wait and ceiling.
 */
export function doublingDelay(attempts: number, schedule: { firstMs: number; longestMs: number }): number {
  return Math.min(schedule.firstMs * 2 ** Math.max(0, attempts - 1), schedule.longestMs);
}

/**
 * When to try again after `failedAttempts` failures of something that first arrived at `since`,
 * or null when its window is over (give up). The last attempt lands exactly at the end of the window.
 */
export function nextAttemptAfterFailure(since: Date, now: Date, failedAttempts: number): Date | null {
  const deadline = since.getTime() + RETRY_WINDOW_MS;
  if (now.getTime() >= deadline) return null;
  return new Date(Math.min(now.getTime() + delayAfterFailedAttempts(failedAttempts), deadline));
}

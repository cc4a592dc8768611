/** Deliveries are retried for 26 hours after the event, as Mollie does towards us. */
export const DELIVERY_WINDOW_MS = 26 * 60 * 60 * 1000;

const FIRST_RETRY_MS = 30 * 1000;
const LONGEST_WAIT_MS = 6 * 60 * 60 * 1000;

/**
 * Wait before attempt n+1 after n failed attempts: 30 s, 1 min, 2 min … doubling, at most 6 h.
 * About 15 attempts fit in the window; the last one is at its very end.
 */
export function delayAfterFailedAttempts(attempts: number): number {
  return Math.min(FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1), LONGEST_WAIT_MS);
}

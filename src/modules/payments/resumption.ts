import { adapterNamed, type PaymentProvider } from '../../providers';
import { ProviderCredentialsError, ProviderOutageError, outcomeIsUnknown } from '../../providers/errors';

/**
 * When a creation at the provider (a payment, a customer) that did not settle is tried again, and
 * what a failed attempt means for the row. Shared by payments/pipeline.ts and customers/creation.ts.
 */

/** Whether a row of this age is past the provider's idempotency-key window: a resume then looks the object up first. */
export const pastKeyWindow = (provider: Pick<PaymentProvider, 'name'>, ageMs: number): boolean => ageMs > adapterNamed(provider.name).idempotencyKeyWindowMs;
/** The provider's creation time and ours differ by the request's duration and clock skew. */
export const LOOKUP_MARGIN_MS = 10 * 60 * 1000;
/** A row nobody resumed (a crash, a client that never retried) is taken up by the finishing job after this. */
export const FIRST_RESUME_AFTER_MS = 2 * 60 * 1000;

const FIRST_DELAY_MS = 60 * 1000;
const LONGEST_DELAY_MS = 60 * 60 * 1000;

/**
 * What a failed create call leaves behind:
 * - `unknown`: the call may have reached the provider (timeout, dropped connection, 5xx, 409);
 * - `postponed`: it certainly did nothing, and nothing is wrong with the object itself — a rate
 *   limit, or (for a payment no payer waits for) credentials the merchant has to fix;
 * - `refused`: the provider refused this object.
 * Only `refused` may end a row, and for a resumed row only after a look-up finds nothing.
 */
export type FailedCreate = 'unknown' | 'postponed' | 'refused';

export function failedCreate(error: unknown, options: { payerWaits: boolean }): FailedCreate {
  if (outcomeIsUnknown(error)) return 'unknown';
  if (error instanceof ProviderOutageError) return 'postponed';
  if (error instanceof ProviderCredentialsError && !options.payerWaits) return 'postponed';
  return 'refused';
}

/**
 * When the next attempt may start after `attempts` attempts that did not settle: 1 min, 2, 4, …
 * doubling up to an hour, and never before the provider's Retry-After after a rate limit.
 */
export function nextResumeAt(now: Date, attempts: number, cause: unknown): Date {
  const backoff = Math.min(FIRST_DELAY_MS * 2 ** Math.max(0, attempts - 1), LONGEST_DELAY_MS);
  const rateLimited = cause instanceof ProviderOutageError && !cause.mayHaveReachedProvider;
  const asked = rateLimited ? cause.retryAfterSeconds * 1000 : 0;
  return new Date(now.getTime() + Math.max(backoff, asked));
}

import { adapterNamed, type PaymentProvider } from './index';
import { ProviderCredentialsError, ProviderOutageError, outcomeIsUnknown } from './errors';
import { msAfter } from '../time';

/**
 * When a creation at the provider (a payment, a customer, a refund) that did not settle is tried
 * again, and what a failed attempt means for the row. Shared by payments/pipeline.ts,
 * customers/creation.ts and refunds/service.ts: a rule of calls to any provider, kept beside them
 * so that no module imports another for it.
 */

/** Whether a row of this age is past the provider's idempotency-key window: a resume then looks the object up first. */
export const pastKeyWindow = (provider: Pick<PaymentProvider, 'name'>, ageMs: number): boolean =>
  ageMs > adapterNamed(provider.name).idempotencyKeyWindowMs;
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
  return msAfter(now, Math.max(backoff, asked));
}

/** How one kind of object is made at the provider, for createOrRecover. */
export interface CreationSteps<Made, Result> {
  /** An earlier attempt may have reached the provider (the row is resumed). */
  resumed: boolean;
  /** Whether the row is older than the provider's key window: its key may no longer replay the answer. Asked only of a resumed row. */
  pastKeyWindow: () => boolean;
  /** Whether someone waits for the answer: then refused credentials are a refusal, told at once. */
  payerWaits: boolean;
  /** The object an earlier attempt made, found by our id; a failed look-up throws (the row is kept). */
  lookUp: () => Promise<Made | null>;
  /** After a look-up past the key window found nothing: a result that ends the row here, or undefined to go on and create. */
  afterFruitlessLookUp?: () => Promise<Result | undefined>;
  /** The provider call, with the row's own key. */
  create: () => Promise<Made>;
  recordFound: (found: Made) => Promise<Result>;
  recordCreated: (created: Made) => Promise<Result>;
  /** Keeps the row to be resumed after a backoff; answers the error to throw. */
  keepForLater: (cause: unknown) => Promise<Error>;
  /** Ends the row the provider certainly refused (nothing exists there); the refusal is thrown after. */
  refused: (error: unknown) => Promise<void>;
}

/**
 * The recovery points of a creation at the provider whose row was written first (a payment, a
 * customer): a resumed row past the key window is looked up by our id first; otherwise, or when
 * not found, the provider is called with the row's key. A failure that is not a refusal keeps the
 * row for later; a refusal of a resumed call is believed only once a look-up by our id finds
 * nothing, as the first call may have made the object. (A mandate is made another way, see
 * mandates/service.ts.)
 */
export async function createOrRecover<Made, Result>(steps: CreationSteps<Made, Result>): Promise<Result> {
  let lookedUp = false;
  if (steps.resumed && steps.pastKeyWindow()) {
    const found = await steps.lookUp();
    if (found) return steps.recordFound(found);
    lookedUp = true;
    const ended = await steps.afterFruitlessLookUp?.();
    if (ended !== undefined) return ended;
  }
  let created: Made;
  try {
    created = await steps.create();
  } catch (error) {
    if (failedCreate(error, { payerWaits: steps.payerWaits }) !== 'refused') throw await steps.keepForLater(error);
    if (steps.resumed && !lookedUp) {
      // The refusal is of this call: the first one, whose answer was lost, may have made the object.
      const found = await steps.lookUp();
      if (found) return steps.recordFound(found);
    }
    await steps.refused(error);
    throw error;
  }
  return steps.recordCreated(created);
}

import { AppError, ProviderUnavailableError, ValidationError } from '../errors';

/**
 * Every failure of a provider call says whether the request may have reached the provider and done
 * its work there. When it may have (a timeout, a dropped connection, a 5xx), the outcome is unknown:
 * whoever made the call keeps its row and resumes it with the same idempotency key; only a failure
 * that certainly changed nothing at the provider may be treated as "nothing was created".
 */
export interface ProviderCallFailure {
  readonly mayHaveReachedProvider: boolean;
}

function isProviderCallFailure(error: unknown): error is ProviderCallFailure {
  return typeof error === 'object' && error !== null && typeof (error as Partial<ProviderCallFailure>).mayHaveReachedProvider === 'boolean';
}

/**
 * Whether a failed provider call left the outcome unknown. Anything that is not one of our mapped
 * provider errors (a bug in a client library, a crash mid-call) counts as unknown: assuming "nothing
 * happened" is what creates a second payment.
 */
export function outcomeIsUnknown(error: unknown): boolean {
  return isProviderCallFailure(error) ? error.mayHaveReachedProvider : true;
}

/**
 * The provider refused a request because of its content (an HTTP 422). `field` is the name of the
 * field in OUR API when the adapter knows which one it was; it is then listed under `fields`, so a
 * client sees the same shape as every other 422.
 */
export class ProviderRejectedError extends ValidationError implements ProviderCallFailure {
  override readonly code = 'provider_rejected';
  readonly mayHaveReachedProvider = false;

  constructor(
    readonly detail: string,
    readonly field: string | null,
  ) {
    super(`The payment provider refused the request: ${detail}`, field ? { [field]: [detail] } : {});
  }
}

/**
 * The provider refused the account's credentials (an HTTP 401/403). 502: the client's request was
 * fine, the gateway behind us refused us; retrying does not help until the account owner sets a
 * valid key (`cli accounts set-provider`). The key itself is never part of the message.
 */
export class ProviderCredentialsError extends AppError implements ProviderCallFailure {
  readonly mayHaveReachedProvider = false;

  /** `providerName`: whose credentials they are, as people know it. */
  constructor(providerName: string) {
    super(
      502,
      `The payment provider refused this account's ` +
        `${providerName} credentials: the API key is wrong, revoked or lacks permission. The account owner must set a valid key`,
      'provider_credentials_invalid',
    );
  }
}

/** The provider does not know an object we refer to (an HTTP 404/410): our records and theirs disagree. */
export class ProviderNotFoundError extends AppError implements ProviderCallFailure {
  readonly mayHaveReachedProvider = false;

  constructor(detail: string) {
    super(502, `The payment provider does not know the requested object: ${detail}`, 'provider_not_found');
  }
}

/** The provider answered in a way no retry can fix (an unexpected 4xx): a fault on our side or theirs. */
export class ProviderFailedError extends AppError implements ProviderCallFailure {
  readonly mayHaveReachedProvider = false;

  constructor(detail: string) {
    super(502, `The payment provider could not handle the request: ${detail}`, 'provider_error');
  }
}

/**
 * The provider failed or could not be reached (5xx after the client's own retries, 429, network
 * errors, timeouts). Retryable; `retryAfterSeconds` is a hint for a Retry-After header.
 * `mayHaveReachedProvider` is false only when the provider certainly did nothing (a 429).
 */
export class ProviderOutageError extends ProviderUnavailableError implements ProviderCallFailure {
  constructor(
    readonly reason: string,
    readonly retryAfterSeconds: number,
    readonly mayHaveReachedProvider: boolean = true,
  ) {
    super(`The payment provider could not be reached (${reason}); retry the request in about ${retryAfterSeconds} seconds`);
  }
}

/** What a client is told to wait before retrying when the provider gave no hint of its own. */
export const DEFAULT_RETRY_AFTER_SECONDS = 30;

/**
 * A create whose outcome at the provider is unknown (no answer, a dropped connection, a 5xx). Our row
 * is kept and will be completed, by a retry of the same request (same Idempotency-Key) or by the job
 * that finishes stalled creations; it is never made a second time. `what` names it: "payment pay_…".
 */
export class CreationOutcomeUnknownError extends ProviderUnavailableError {
  readonly retryAfterSeconds: number;

  constructor(what: string, cause: unknown) {
    const outage = cause instanceof ProviderOutageError ? cause : null;
    const retryAfterSeconds = outage?.retryAfterSeconds ?? DEFAULT_RETRY_AFTER_SECONDS;
    super(
      `The payment provider did not confirm the request ` +
        `(${outage?.reason ?? 'no usable answer'}); ${what} is kept and will be completed, ` +
        `never made twice: retry the request with the same Idempotency-Key in about ${retryAfterSeconds} seconds`,
    );
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/**
 * No provider is configured for the account, and the sandbox is off (production). Nothing was sent
 * anywhere. The message names what the operator must configure: `setUpHints`, one per provider.
 */
export class ProviderNotConfiguredError extends AppError implements ProviderCallFailure {
  readonly mayHaveReachedProvider = false;

  constructor(nodeEnv: string, setUpHints: readonly string[]) {
    super(
      503,
      `No payment provider is configured for this account: ${setUpHints.join('; or ')}` +
        ` (the sandbox provider is off${nodeEnv === 'production' ? ' in production unless SANDBOX=on' : ': SANDBOX=off'})`,
      'provider_not_configured',
    );
  }
}

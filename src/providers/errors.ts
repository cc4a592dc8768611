import { AppError, ProviderUnavailableError, ValidationError } from '../http/errors';

/**
 * The provider refused a request because of its content (Mollie's 422). `field` is the name of the
 * field in OUR API when the adapter knows which one it was; it is then listed under `fields`, so a
 * client sees the same shape as every other 422.
 */
export class ProviderRejectedError extends ValidationError {
  override readonly code = 'provider_rejected';

  constructor(
    readonly detail: string,
    readonly field: string | null,
  ) {
    super(`The payment provider refused the request: ${detail}`, field ? { [field]: [detail] } : {});
  }
}

/**
 * The provider refused the account's credentials (Mollie's 401/403). 502: the client's request was
 * fine, the gateway behind us refused us; retrying does not help until the account owner sets a
 * valid key (`cli accounts set-provider`). The key itself is never part of the message.
 */
export class ProviderCredentialsError extends AppError {
  constructor() {
    super(
      502,
      "The payment provider refused this account's Mollie credentials: the API key is wrong, revoked or lacks permission. The account owner must set a valid key",
      'provider_credentials_invalid',
    );
  }
}

/** The provider does not know an object we refer to (Mollie's 404/410): our records and theirs disagree. */
export class ProviderNotFoundError extends AppError {
  constructor(detail: string) {
    super(502, `The payment provider does not know the requested object: ${detail}`, 'provider_not_found');
  }
}

/** The provider answered in a way no retry can fix (an unexpected 4xx): a fault on our side or theirs. */
export class ProviderFailedError extends AppError {
  constructor(detail: string) {
    super(502, `The payment provider could not handle the request: ${detail}`, 'provider_error');
  }
}

/**
 * The provider failed or could not be reached (5xx after the client's own retries, 429, network
 * errors, timeouts). Retryable; `retryAfterSeconds` is a hint for a Retry-After header.
 */
export class ProviderOutageError extends ProviderUnavailableError {
  constructor(
    reason: string,
    readonly retryAfterSeconds: number,
  ) {
    super(`The payment provider could not be reached (${reason}); retry the request in about ${retryAfterSeconds} seconds`);
  }
}

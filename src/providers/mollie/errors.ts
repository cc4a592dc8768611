import { MollieApiError } from '@mollie/api-client';
import { AppError } from '../../http/errors';
import { ProviderCredentialsError, ProviderFailedError, ProviderNotFoundError, ProviderOutageError, ProviderRejectedError } from '../errors';
import type { FieldNames } from './transformers';

/** What a client is told to wait before retrying after an outage (Mollie sends no Retry-After we could pass on). */
export const RETRY_AFTER_SECONDS = 30;

/**
 * The one mapping of Mollie's failures to ours. `fields` translates the Mollie field of a 422 to the
 * field of our API. Errors that are not Mollie's (our own bugs) pass through untouched.
 */
export function providerErrorFrom(error: unknown, fields: FieldNames): unknown {
  if (error instanceof AppError || !(error instanceof MollieApiError)) return error;
  const status = error.statusCode;
  if (status === undefined) {
    // The client checks id prefixes before sending; nothing went over the wire and no retry helps.
    if (/appears invalid/.test(error.message)) return new ProviderRejectedError(error.message, null);
    // Network errors, timeouts and bodies that are not Mollie's JSON (a proxy's HTML page).
    return new ProviderOutageError('network error', RETRY_AFTER_SECONDS);
  }
  if (status === 422) return new ProviderRejectedError(error.message, error.field ? (fields[error.field] ?? null) : null);
  if (status === 401 || status === 403) return new ProviderCredentialsError();
  if (status === 404 || status === 410) return new ProviderNotFoundError(error.message);
  if (status === 429) return new ProviderOutageError('rate limited, HTTP 429', RETRY_AFTER_SECONDS);
  // Another request with the same idempotency key is still running at Mollie: the retry gets its answer.
  if (status === 409) return new ProviderOutageError('a request with the same idempotency key is in progress, HTTP 409', RETRY_AFTER_SECONDS);
  if (status >= 500) return new ProviderOutageError(`HTTP ${status}`, RETRY_AFTER_SECONDS);
  return new ProviderFailedError(`${error.message} (HTTP ${status})`);
}

import { MollieApiError } from '@mollie/api-client';
import { AppError } from '../../errors';
import {
  ProviderCredentialsError,
  ProviderFailedError,
  ProviderNotFoundError,
  ProviderOutageError,
  ProviderRejectedError,
} from '../errors';
import type { FieldNames } from './transformers';

/** What a client is told to wait before retrying after an outage (Mollie sends no Retry-After we could pass on). */
export const RETRY_AFTER_SECONDS = 30;

/**
 * The one mapping of Mollie's failures to ours. `fields` translates the Mollie field of a 422 to the
 * field of our API. Errors that are not Mollie's (our own bugs) pass through untouched.
 *
 * Each mapped error says whether the request may have been carried out at Mollie
 * (`mayHaveReachedProvider`): only an answer in which Mollie refused the request leaves "nothing
 * happened" certain. A lost or garbled answer, a 5xx and a 409 leave the outcome unknown.
 */
export function providerErrorFrom(error: unknown, fields: FieldNames, retryAfterSeconds: number | null = null): unknown {
  if (error instanceof AppError || !(error instanceof MollieApiError)) return error;
  const status = error.statusCode;
  if (status === undefined) {
    // The client checks id prefixes before sending; nothing went over the wire and no retry helps.
    if (/appears invalid/.test(error.message)) return new ProviderRejectedError(error.message, null);
    // Network errors, timeouts and bodies that are not Mollie's JSON (a proxy's HTML page): the
    // request may have been processed and only its answer lost.
    return new ProviderOutageError('network error', RETRY_AFTER_SECONDS, true);
  }
  if (status === 422) return new ProviderRejectedError(error.message, error.field ? (fields[error.field] ?? null) : null);
  if (status === 401 || status === 403) return new ProviderCredentialsError('Mollie');
  if (status === 404 || status === 410) return new ProviderNotFoundError(error.message);
  // Mollie refuses a rate-limited request before doing anything with it; its Retry-After is honoured.
  if (status === 429) return new ProviderOutageError('rate limited, HTTP 429', retryAfterSeconds ?? RETRY_AFTER_SECONDS, false);
  // Another request with the same idempotency key is still running at Mollie: it may well succeed,
  // and the retry with that key gets its answer.
  if (status === 409)
    return new ProviderOutageError('a request with the same idempotency key is in progress, HTTP 409', RETRY_AFTER_SECONDS, true);
  // The client already retried with the same key; Mollie may have done the work before failing.
  if (status >= 500) return new ProviderOutageError(`HTTP ${status}`, RETRY_AFTER_SECONDS, true);
  return new ProviderFailedError(`${error.message} (HTTP ${status})`);
}

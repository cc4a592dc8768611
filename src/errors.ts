/**
 * One error hierarchy with one mapping to HTTP. Services throw these; the error handler renders
 * `{"status", "error", "code", "fields"?}` — the original service's body, plus a stable machine code.
 */

export type FieldErrors = Record<string, string[]>;

export class AppError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code: string,
    /** Whether the same request may succeed later (provider outages, rate limits). */
    readonly retryable = false,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class ValidationError extends AppError {
  constructor(
    message: string,
    readonly fields: FieldErrors,
  ) {
    super(422, message, 'validation_failed');
  }

  /** A validation error on a single field, for rules checked after parsing (e.g. an unknown mandate). */
  static field(message: string, field: string, fieldMessage: string): ValidationError {
    return new ValidationError(message, { [field]: [fieldMessage] });
  }
}

export class NotFoundError extends AppError {
  constructor(resource: string) {
    super(404, `${resource} not found`, 'not_found');
  }
}

export class UnauthenticatedError extends AppError {
  constructor(message = 'Unauthenticated: send a valid token as "Authorization: Bearer <token>"') {
    super(401, message, 'unauthenticated');
  }
}

export class ConflictError extends AppError {
  constructor(message: string, code = 'conflict') {
    super(409, message, code);
  }
}

export class RateLimitedError extends AppError {
  constructor(readonly retryAfterSeconds: number) {
    super(429, 'Too many requests: slow down and retry after the time in the Retry-After header', 'rate_limited', true);
  }
}

/** The payment provider failed or could not be reached; the request may be retried. */
export class ProviderUnavailableError extends AppError {
  constructor(message = 'The payment provider could not be reached; retry the request later') {
    super(502, message, 'provider_unavailable', true);
  }
}

/** What a caught error says: an Error's message, anything else thrown as text (a rejection may be any value). */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

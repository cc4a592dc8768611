import { AppError } from '../http/errors';

/** The provider refused a request because of its content (Mollie's 422); names the field when known. */
export class ProviderRejectedError extends AppError {
  constructor(
    message: string,
    readonly field: string | null,
  ) {
    super(422, `The payment provider refused the request: ${message}`, 'provider_rejected');
  }
}

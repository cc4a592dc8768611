import type { AppContext } from '../../context';
import { AppError } from '../../errors';
import { MoneybirdError } from './client';
import { MoneybirdConnectionError, unknownStyleFields } from './connection';

/** Moneybird could not tell whether the workflow and document style exist: the request may be retried. */
export class MoneybirdUnavailableError extends AppError {
  constructor(message: string) {
    super(502, message, 'bookkeeping_unavailable', true);
  }
}

/**
 * The fields of a new subscription (`workflow_id`, `docstyle_id`) that the account's Moneybird
 * administration does not know. Moneybird unreachable or refusing the token: a 502 that says so.
 */
export async function checkMoneybirdStyles(
  ctx: AppContext,
  accountId: string,
  ids: { workflow_id: string; docstyle_id: string },
): Promise<Array<'workflow_id' | 'docstyle_id'>> {
  try {
    return await unknownStyleFields(ctx, accountId, ids);
  } catch (error) {
    if (error instanceof MoneybirdError || error instanceof MoneybirdConnectionError) {
      throw new MoneybirdUnavailableError(
        `The workflow id and docstyle id could not be checked at Moneybird; retry later (${error.message})`,
      );
    }
    throw error;
  }
}

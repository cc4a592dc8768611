import type { AppContext } from '../../context';
import type { Account } from '../accounts/account';
import { NotFoundError } from '../../errors';
import { customersRepository } from '../customers/repository';
import { createPortalLink, type NewPortalLink } from './links';
import type { CreatePortalSessionInput } from './schemas';

/**
 * `POST /api/v2/customers/{id}/portal-sessions`: a single-use link, valid an hour, that opens the
 * self-service portal for the customer. Another account's customer is not found.
 */
export async function createPortalSession(
  ctx: AppContext,
  account: Account,
  customerId: string,
  input: CreatePortalSessionInput,
): Promise<NewPortalLink> {
  if (!(await customersRepository.find(ctx.db, account.id, customerId))) throw new NotFoundError('Customer');
  return createPortalLink(ctx, {
    accountId: account.id,
    customerId,
    purpose: 'session-link',
    returnUrl: input.return_url ?? null,
    locale: input.locale ?? null,
  });
}

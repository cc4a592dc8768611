import type { AppContext } from '../../context';
import type { Account } from '../accounts/account';
import { ConflictError, NotFoundError } from '../../errors';
import { customersRepository } from '../customers/repository';
import { mandatesRepository, type MandateRow } from './repository';
import { revokeMandate } from './revocation';

/**
 * A customer's mandates as the API reads and ends them (extensions). Another account's customer or
 * mandate, or a mandate of another customer, is not found: the same answer as an id that does not exist.
 */

async function requireCustomer(ctx: AppContext, account: Account, customerId: string): Promise<void> {
  if (!(await customersRepository.find(ctx.db, account.id, customerId))) throw new NotFoundError('Customer');
}

export async function listCustomerMandates(ctx: AppContext, account: Account, customerId: string): Promise<MandateRow[]> {
  await requireCustomer(ctx, account, customerId);
  return mandatesRepository.listForCustomer(ctx.db, account.id, customerId);
}

export async function getCustomerMandate(ctx: AppContext, account: Account, customerId: string, mandateId: string): Promise<MandateRow> {
  await requireCustomer(ctx, account, customerId);
  const mandate = await mandatesRepository.findForCustomer(ctx.db, account.id, customerId, mandateId);
  if (!mandate) throw new NotFoundError('Mandate');
  return mandate;
}

/** Refused while a subscription is or will be charged on the mandate; names them, so the client knows what to move first. */
export class MandateInUseError extends ConflictError {
  constructor(readonly subscriptions: Array<{ id: string; status: string }>) {
    super(
      `The mandate is in use by subscription${subscriptions.length === 1 ? '' : 's'} ` +
        `${subscriptions.map((subscription) => `${subscription.id} (${subscription.status})`).join(', ')}: ` +
        'move them to another mandate or cancel them first',
      'mandate_in_use',
    );
  }
}

/**
 * `DELETE …/mandates/{id}`: revokes the mandate at the provider and here (revocation.ts), unless a
 * draft, active or paused subscription uses it (409). Revoking a revoked mandate answers it as it is.
 */
export async function deleteCustomerMandate(ctx: AppContext, account: Account, customerId: string, mandateId: string): Promise<MandateRow> {
  const mandate = await getCustomerMandate(ctx, account, customerId, mandateId);
  const using = await mandatesRepository.subscriptionsUsing(ctx.db, account.id, mandate.id);
  if (using.length) throw new MandateInUseError(using);
  return revokeMandate(ctx, mandate);
}

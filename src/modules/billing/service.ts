import type { AppContext } from '../../context';
import type { Account } from '../accounts/account';
import { NotFoundError } from '../../errors';
import type { Page, PageRequest } from '../../paging';
import { subscriptionsRepository } from '../subscriptions/repository';
import { invoicesRepository, type InvoiceRow } from './invoicesRepository';

/** A page of the invoice records of one of the account's subscriptions, oldest first. */
export async function listSubscriptionInvoices(
  ctx: AppContext,
  account: Account,
  subscriptionId: string,
  request: PageRequest,
): Promise<Page<InvoiceRow>> {
  if (!(await subscriptionsRepository.find(ctx.db, account.id, subscriptionId))) throw new NotFoundError('Subscription');
  return invoicesRepository.pageOfSubscription(ctx.db, account.id, subscriptionId, request);
}

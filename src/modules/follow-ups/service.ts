import type { ListFilterValues } from '../../db/tenantTable';
import type { AppContext } from '../../context';
import type { Account } from '../accounts/account';
import { ConflictError, NotFoundError } from '../../errors';
import { toDbDateTime } from '../../time';
import { giveUp, solve } from './progress';
import type { Page, PageRequest } from '../../paging';
import { followUpsRepository, type FollowUpRow } from './repository';
import { cancelFollowUpPayments } from './settledByHand';

export async function getFollowUp(ctx: AppContext, account: Account, id: string): Promise<FollowUpRow> {
  const row = await followUpsRepository.find(ctx.db, account.id, id);
  if (!row) throw new NotFoundError('Follow-up');
  return row;
}

/** One page of the list, filtered by the given columns (`?status=`…; none: the whole list). */
export function listFollowUps(
  ctx: AppContext,
  account: Account,
  request: PageRequest,
  filters: ListFilterValues = {},
): Promise<Page<FollowUpRow>> {
  return followUpsRepository.pageFiltered(ctx.db, account.id, filters, request);
}

/**
 * `PUT /api/v2/follow-ups/{id}`: the merchant settles a follow-up by hand (paid in the shop, written
 * off). No retry or mail follows, and nothing charges again for it: its payment link is withdrawn
 * with the settling, and its retries and link payments still under way are cancelled at the
 * provider after the commit (settledByHand.ts). Setting the status it already has changes nothing;
 * a follow-up that is already solved or failed keeps its outcome.
 */
export async function setFollowUpStatus(ctx: AppContext, account: Account, id: string, status: 'solved' | 'failed'): Promise<FollowUpRow> {
  const row = await getFollowUp(ctx, account, id);
  if (row.status === status) return row;
  if (row.status !== 'pending') throw new ConflictError(`The follow-up is already ${row.status}`);
  const now = toDbDateTime(ctx.clock.now());
  // Settling withdraws the follow-up's link in the same transaction (progress.ts); read again after it,
  // so the payments of a link sent a moment ago are cancelled too.
  const settled = await ctx.db.transaction(async (trx) => {
    const moved = status === 'solved' ? await solve(ctx, trx, row, now) : await giveUp(ctx, trx, row, now, { act: false });
    return moved ? followUpsRepository.find(trx, account.id, id) : undefined;
  });
  if (settled) cancelFollowUpPayments(ctx, account, settled);
  return getFollowUp(ctx, account, id);
}

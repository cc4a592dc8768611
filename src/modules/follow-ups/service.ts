import type { Account, AppContext } from '../../context';
import { NotFoundError } from '../../http/errors';
import type { Page, PageRequest } from '../../http/pagination';
import { followUpsRepository, type FollowUpRow } from './repository';

export async function getFollowUp(ctx: AppContext, account: Account, id: string): Promise<FollowUpRow> {
  const row = await followUpsRepository.find(ctx.db, account.id, id);
  if (!row) throw new NotFoundError('Follow-up');
  return row;
}

export function listFollowUps(ctx: AppContext, account: Account, request: PageRequest): Promise<Page<FollowUpRow>> {
  return followUpsRepository.page(ctx.db, account.id, request);
}

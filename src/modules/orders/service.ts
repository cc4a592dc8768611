import type { ListFilterValues } from '../../db/tenantTable';
import type { AppContext } from '../../context';
import type { Account } from '../accounts/account';
import { NotFoundError } from '../../errors';
import type { Page, PageRequest } from '../../paging';
import { ordersRepository, type OrderRow } from './repository';

export async function getOrder(ctx: AppContext, account: Account, id: string): Promise<OrderRow> {
  const row = await ordersRepository.find(ctx.db, account.id, id);
  if (!row) throw new NotFoundError('Order');
  return row;
}

/** One page of the list, filtered by the given columns (`?status=`…; none: the whole list). */
export function listOrders(
  ctx: AppContext,
  account: Account,
  request: PageRequest,
  filters: ListFilterValues = {},
): Promise<Page<OrderRow>> {
  return ordersRepository.pageFiltered(ctx.db, account.id, filters, request);
}

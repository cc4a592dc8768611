import type { Knex } from 'knex';
import type { Page, PageRequest } from '../http/pagination';

/**
 * One page of a tenant-scoped query, in creation order (`seq`), plus the total. The query must
 * already be scoped by account; both statements use the (account_id, seq) index.
 */
export async function pageOf<Row extends object>(query: Knex.QueryBuilder, request: PageRequest): Promise<Page<Row>> {
  const [countRow] = (await query.clone().clearSelect().clearOrder().count({ total: '*' })) as Array<{ total: number | string }>;
  const items = (await query
    .clone()
    .orderBy('seq', 'asc')
    .limit(request.perPage)
    .offset((request.page - 1) * request.perPage)) as Row[];
  return { items, total: Number(countRow?.total ?? 0) };
}

import type { Knex } from 'knex';
import type { Page, PageRequest } from '../paging';
import { readRows } from './hotReads';

/**
 * One page of a tenant-scoped query that is not a numbered list (a filtered one: customers by
 * e-mail, a subscription's invoices), in creation order (`seq`), plus a count. The query must
 * already be scoped by account and select from one table. A deep page first finds its first `seq`
 * on the index alone — no row is read for the pages before it — then reads its rows from there.
 */
export async function pageOf<Row extends object>(query: Knex.QueryBuilder, request: PageRequest): Promise<Page<Row>> {
  const offset = (request.page - 1) * request.perPage;
  const counting = query
    .clone()
    .clearSelect()
    .clearOrder()
    .count({ total: '*' })
    .then((rows) => Number((rows as Array<{ total: number | string }>)[0]?.total ?? 0));
  const reading = (async () => {
    if (offset === 0) return (await query.clone().orderBy('seq', 'asc').limit(request.perPage)) as Row[];
    const first = (await query.clone().clearSelect().clearOrder().select('seq').orderBy('seq', 'asc').offset(offset).limit(1)) as Array<{
      seq: number | string;
    }>;
    if (!first[0]) return [];
    return (await query.clone().andWhere('seq', '>=', first[0].seq).orderBy('seq', 'asc').limit(request.perPage)) as Row[];
  })();
  const [items, count] = await Promise.all([reading, counting]);
  return { items, total: count };
}

/**
 * A page of a numbered list (`account_seq`, kept by triggers, see migration 022): a seek on
 * (account_id, account_seq) however deep the page, and the total read from account_row_counts.
 */
export async function numberedPage<Row extends object>(
  db: Knex,
  table: string,
  accountId: string,
  request: PageRequest,
): Promise<Page<Row>> {
  const offset = (request.page - 1) * request.perPage;
  const [items, totals] = await Promise.all([
    // The numbers have no gaps, so page N is exactly the numbers offset+1 … offset+perPage: a range the
    // optimizer can only read by the (account_id, account_seq) index (an open-ended `>` let MariaDB
    // choose to walk the whole account's part of the index). `table` is one of our own names.
    readRows<Row>(
      db,
      `select * from \`${table}\` where \`account_id\` = ? and \`account_seq\` between ? and ? order by \`account_seq\` asc`,
      [accountId, offset + 1, offset + request.perPage],
    ),
    readRows<{ total: number | string }>(db, 'select `total` from `account_row_counts` where `account_id` = ? and `list_name` = ?', [
      accountId,
      table,
    ]),
  ]);
  return { items, total: Number(totals[0]?.total ?? 0) };
}

/** After deleting the row numbered `position`, the rows after it move up one: the list stays without gaps. */
export async function closeListGap(trx: Knex.Transaction, table: string, accountId: string, position: number): Promise<void> {
  // One at a time in ascending order, so the unique (account_id, account_seq) never sees two equal numbers.
  await trx(table)
    .where({ account_id: accountId })
    .andWhere('account_seq', '>', position)
    .orderBy('account_seq', 'asc')
    .decrement('account_seq', 1);
}

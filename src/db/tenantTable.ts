import type { Knex } from 'knex';
import type { Page, PageRequest } from '../paging';
import { numberedPage, pageOf } from './paging';
import { readRow } from './hotReads';

/** The lists numbered per account by the database (migration 022): their pages are seeks. */
const NUMBERED_LISTS = new Set(['customers', 'products', 'subscriptions', 'payment_links', 'follow_ups', 'orders', 'sync_runs']);

/** A list's filters by column: a value to equal, or undefined (not filtered on). */
export type ListFilterValues = Record<string, string | undefined>;

/** What every tenant row has: its public id and the account that owns it. */
export interface TenantRow {
  id: string;
  account_id: string;
}

/**
 * The reads every tenant table shares. Each one is scoped by account, so another account's id is
 * simply not found — the same answer as an id that does not exist.
 */
export function tenantTable<Row extends TenantRow>(name: string) {
  const scoped = (db: Knex, accountId: string) => db(name).where(`${name}.account_id`, accountId);
  return {
    table: (db: Knex) => db<Row>(name),

    /** One row by id: a hot read outside a transaction (hotReads.ts), the one read every resource and job makes. */
    find: async (db: Knex, accountId: string, id: string): Promise<Row | undefined> =>
      readRow<Row>(db, `select * from \`${name}\` where \`account_id\` = ? and \`id\` = ? limit 1`, [accountId, id]),

    /**
     * Rows by id, for nesting in other resources: one query for a whole page. Read by the id index:
     * SQLite, which keeps no statistics, took the account's index for `account_id = ? and id in (…)`
     * and walked the whole account (a page of 15 subscriptions read all 10,000 customers); the account
     * is compared through coalesce() so that no index serves it, and only the ids are looked up.
     */
    findMany: async (db: Knex, accountId: string, ids: string[]): Promise<Map<string, Row>> => {
      if (!ids.length) return new Map();
      const rows = (await db(name)
        .whereIn(`${name}.id`, [...new Set(ids)])
        .andWhereRaw(`coalesce(??, '') = ?`, [`${name}.account_id`, accountId])) as Row[];
      return new Map(rows.map((row) => [row.id, row]));
    },

    /** One page in creation order, with the total: a seek and a key lookup for the numbered lists. */
    page: (db: Knex, accountId: string, request: PageRequest): Promise<Page<Row>> =>
      NUMBERED_LISTS.has(name) ? numberedPage<Row>(db, name, accountId, request) : pageOf<Row>(scoped(db, accountId), request),

    /**
     * One page of the rows whose columns equal the given filters (a list's `?status=…&customer_id=…`;
     * absent ones are not filters), in creation order; without any, the plain page. Scoped by
     * account, so another account's id filters to nothing. Each filter has an index that starts
     * with account_id and ends in seq (migration 036): the page is a range read in `seq` order.
     */
    pageFiltered: (db: Knex, accountId: string, filters: ListFilterValues, request: PageRequest): Promise<Page<Row>> => {
      const given = Object.entries(filters).filter((entry): entry is [string, string] => entry[1] !== undefined);
      if (!given.length)
        return NUMBERED_LISTS.has(name) ? numberedPage<Row>(db, name, accountId, request) : pageOf<Row>(scoped(db, accountId), request);
      return pageOf<Row>(
        scoped(db, accountId).where(Object.fromEntries(given.map(([column, value]) => [`${name}.${column}`, value]))),
        request,
      );
    },
  };
}

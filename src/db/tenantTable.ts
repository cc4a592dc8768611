import type { Knex } from 'knex';
import type { Page, PageRequest } from '../paging';
import { numberedPage, pageOf } from './paging';

/** The lists numbered per account by the database (migration 022): their pages are seeks. */
const NUMBERED_LISTS = new Set(['customers', 'products', 'subscriptions', 'payment_links', 'follow_ups', 'orders', 'sync_runs']);

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

    find: async (db: Knex, accountId: string, id: string): Promise<Row | undefined> =>
      (await scoped(db, accountId).andWhere(`${name}.id`, id).first()) as Row | undefined,

    /** Rows by id, for nesting in other resources: one query for a whole page. */
    findMany: async (db: Knex, accountId: string, ids: string[]): Promise<Map<string, Row>> => {
      if (!ids.length) return new Map();
      const rows = (await scoped(db, accountId).whereIn(`${name}.id`, [...new Set(ids)])) as Row[];
      return new Map(rows.map((row) => [row.id, row]));
    },

    /** One page in creation order, with the total: a seek and a key lookup for the numbered lists. */
    page: (db: Knex, accountId: string, request: PageRequest): Promise<Page<Row>> =>
      NUMBERED_LISTS.has(name) ? numberedPage<Row>(db, name, accountId, request) : pageOf<Row>(scoped(db, accountId), request),
  };
}

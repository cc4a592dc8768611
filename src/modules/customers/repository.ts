import type { Knex } from 'knex';
import type { Page, PageRequest } from '../../http/pagination';
import { pageOf } from '../../db/paging';

export interface CustomerRow {
  id: string;
  account_id: string;
  number: string | null;
  first_name: string;
  last_name: string;
  email: string;
  phone: string | null;
  organization_name: string | null;
  address: string | null;
  postal_code: string | null;
  city: string | null;
  country: string | null;
  vat_number: string | null;
  locale: string | null;
  provider_customer_id: string | null;
  created_at: string;
  updated_at: string;
}

const table = (db: Knex) => db<CustomerRow>('customers');

export const customersRepository = {
  insert: (db: Knex, row: CustomerRow) => table(db).insert(row),

  find: (db: Knex, accountId: string, id: string) => table(db).where({ account_id: accountId, id }).first(),

  findByProviderCustomerId: (db: Knex, accountId: string, providerCustomerId: string) =>
    table(db).where({ account_id: accountId, provider_customer_id: providerCustomerId }).first(),

  /** Customers by id, for nesting in other resources (one query for a whole page). */
  findMany: async (db: Knex, accountId: string, ids: string[]): Promise<Map<string, CustomerRow>> => {
    if (!ids.length) return new Map();
    const rows = await table(db).where('account_id', accountId).whereIn('id', [...new Set(ids)]);
    return new Map(rows.map((row) => [row.id, row]));
  },

  update: (db: Knex, accountId: string, id: string, changes: Partial<CustomerRow>) =>
    table(db).where({ account_id: accountId, id }).update(changes),

  delete: (db: Knex, accountId: string, id: string) => table(db).where({ account_id: accountId, id }).delete(),

  page: (db: Knex, accountId: string, request: PageRequest): Promise<Page<CustomerRow>> =>
    pageOf<CustomerRow>(table(db).where('account_id', accountId), request),
};

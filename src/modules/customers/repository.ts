import type { Knex } from 'knex';
import { tenantTable } from '../../db/tenantTable';

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

const shared = tenantTable<CustomerRow>('customers');
const { table } = shared;

export const customersRepository = {
  ...shared,

  insert: (db: Knex, row: CustomerRow) => table(db).insert(row),

  findByProviderCustomerId: (db: Knex, accountId: string, providerCustomerId: string) =>
    table(db).where({ account_id: accountId, provider_customer_id: providerCustomerId }).first(),

  update: (db: Knex, accountId: string, id: string, changes: Partial<CustomerRow>) =>
    table(db).where({ account_id: accountId, id }).update(changes),

  delete: (db: Knex, accountId: string, id: string) => table(db).where({ account_id: accountId, id }).delete(),
};

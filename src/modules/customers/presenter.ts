import type { Config } from '../../config';
import { formatDateTime } from '../../time';
import type { CustomerRow } from './repository';
import type { CustomerResponse } from './schemas';

/** Customer as the API shows it (docs/api.md, Customer); also used when a customer is nested in other resources. */
export function presentCustomer(row: CustomerRow, config: Pick<Config, 'APP_TIMEZONE'>): CustomerResponse {
  return {
    id: row.id,
    first_name: row.first_name,
    last_name: row.last_name,
    email: row.email,
    created_at: formatDateTime(row.created_at, config.APP_TIMEZONE),
    number: row.number,
    phone: row.phone,
    organization_name: row.organization_name,
    address: row.address,
    postal_code: row.postal_code,
    city: row.city,
    country: row.country,
    vat_number: row.vat_number,
    locale: row.locale as CustomerResponse['locale'],
    provider_customer_id: row.provider_customer_id,
  };
}

/** The batched form the route factories take; customers nest nothing, so no queries. */
export function presentCustomers(
  _db: unknown,
  config: Pick<Config, 'APP_TIMEZONE'>,
  _accountId: string,
  rows: CustomerRow[],
): CustomerResponse[] {
  return rows.map((row) => presentCustomer(row, config));
}

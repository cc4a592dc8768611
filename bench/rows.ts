import { newId, randomBase62 } from '../src/ids';
import type { CustomerRow } from '../src/modules/customers/repository';

/** The n-th customer of a benchmark account, known at the provider, with a Dutch address. */
export function benchCustomer(accountId: string, index: number, stamp: string): CustomerRow {
  return {
    id: newId('cus'),
    account_id: accountId,
    number: null,
    first_name: 'Bench',
    last_name: `Customer ${index}`,
    email: `bench${index}@example.nl`,
    phone: null,
    organization_name: null,
    address: 'Damrak 1',
    postal_code: '1012 LG',
    city: 'Amsterdam',
    country: 'NL',
    vat_number: null,
    locale: 'nl',
    provider_customer_id: `cst_${randomBase62(10)}`,
    created_at: stamp,
    updated_at: stamp,
  };
}

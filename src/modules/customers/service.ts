import type { Account, AppContext } from '../../context';
import { NotFoundError } from '../../http/errors';
import type { Page, PageRequest } from '../../http/pagination';
import { newId } from '../../ids';
import type { ProviderCustomerInput } from '../../providers/types';
import { toDbDateTime } from '../../time';
import { customersRepository, type CustomerRow } from './repository';
import type { CreateCustomerInput, UpdateCustomerInput } from './schemas';

function providerCustomerFrom(row: CustomerRow): ProviderCustomerInput {
  return { name: `${row.first_name} ${row.last_name}`, email: row.email, locale: row.locale, reference: row.id };
}

/**
 * Creates the customer here and at the provider. Our row is written first and its id is the
 * provider idempotency key; if the provider refuses or cannot be reached the row is removed again,
 * so a customer without a provider id never appears half-made.
 */
export async function createCustomer(ctx: AppContext, account: Account, input: CreateCustomerInput): Promise<CustomerRow> {
  const now = toDbDateTime(ctx.clock.now());
  const row: CustomerRow = {
    id: newId('cus'),
    account_id: account.id,
    number: input.number ?? null,
    first_name: input.first_name,
    last_name: input.last_name,
    email: input.email,
    phone: input.phone ?? null,
    organization_name: input.organization_name ?? null,
    address: input.address ?? null,
    postal_code: input.postal_code ?? null,
    city: input.city ?? null,
    country: input.country ?? null,
    vat_number: input.vat_number ?? null,
    locale: input.locale ?? null,
    provider_customer_id: null,
    created_at: now,
    updated_at: now,
  };
  await customersRepository.insert(ctx.db, row);
  try {
    const provider = await ctx.providers.forAccount(account);
    const created = await provider.createCustomer(providerCustomerFrom(row), `customer-${row.id}`);
    await customersRepository.update(ctx.db, account.id, row.id, { provider_customer_id: created.id });
    return { ...row, provider_customer_id: created.id };
  } catch (error) {
    await customersRepository.delete(ctx.db, account.id, row.id);
    throw error;
  }
}

export async function getCustomer(ctx: AppContext, account: Account, id: string): Promise<CustomerRow> {
  const row = await customersRepository.find(ctx.db, account.id, id);
  if (!row) throw new NotFoundError('Customer');
  return row;
}

/** Applies the given fields (omitted ones keep their value) and tells the provider when it cares. */
export async function updateCustomer(ctx: AppContext, account: Account, id: string, input: UpdateCustomerInput): Promise<CustomerRow> {
  const current = await getCustomer(ctx, account, id);
  const changes = Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined)) as Partial<CustomerRow>;
  const next: CustomerRow = { ...current, ...changes, updated_at: toDbDateTime(ctx.clock.now()) };
  const providerSees = (row: CustomerRow) => JSON.stringify(providerCustomerFrom(row));
  if (next.provider_customer_id && providerSees(next) !== providerSees(current)) {
    const provider = await ctx.providers.forAccount(account);
    await provider.updateCustomer(next.provider_customer_id, providerCustomerFrom(next));
  }
  await customersRepository.update(ctx.db, account.id, id, { ...changes, updated_at: next.updated_at });
  return next;
}

export function listCustomers(ctx: AppContext, account: Account, request: PageRequest): Promise<Page<CustomerRow>> {
  return customersRepository.page(ctx.db, account.id, request);
}

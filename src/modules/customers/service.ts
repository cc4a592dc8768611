import type { AppContext } from '../../context';
import type { Account } from '../accounts/account';
import { NotFoundError } from '../../errors';
import { WITHOUT_IDEMPOTENCY_KEY, writeRemembered, type IdempotencyScope } from '../../db/idempotencyScope';
import type { Page, PageRequest } from '../../paging';
import { newId } from '../../ids';
import { toDbDateTime } from '../../time';
import { firstResumeAfter, providerCustomerFrom, resumeCustomer, sendCustomerToProvider } from './creation';
import { customersRepository, type CustomerRow } from './repository';
import type { CreateCustomerInput, UpdateCustomerInput } from './schemas';

/**
 * Creates the customer here and at the provider, through the same recovery points as a payment
 * (see creation.ts). With an Idempotency-Key whose earlier attempt already wrote the customer, that
 * customer is resumed instead of a second one being made.
 */
export async function createCustomer(
  ctx: AppContext,
  account: Account,
  input: CreateCustomerInput,
  idempotency: IdempotencyScope = WITHOUT_IDEMPOTENCY_KEY,
): Promise<CustomerRow> {
  if (idempotency.resumedResourceId) {
    const earlier = await customersRepository.find(ctx.db, account.id, idempotency.resumedResourceId);
    if (earlier) return resumeCustomer(ctx, account, earlier);
  }
  // Chosen before anything is written: an account without a provider leaves no row behind.
  const provider = await ctx.providers.forAccount(account);
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
    next_attempt_at: firstResumeAfter(ctx.clock.now()),
    create_attempts: 0,
    created_at: now,
    updated_at: now,
  };
  await writeRemembered(ctx.db, idempotency, row.id, (trx) => customersRepository.insert(trx, row));
  return sendCustomerToProvider(ctx, provider, row, { resumed: false });
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

/** The account's customers, or (the plugin's lookup at checkout) those with one e-mail address. */
export function listCustomers(ctx: AppContext, account: Account, request: PageRequest, email?: string): Promise<Page<CustomerRow>> {
  if (email === undefined) return customersRepository.page(ctx.db, account.id, request);
  return customersRepository.pageWithEmail(ctx.db, account.id, email, request);
}

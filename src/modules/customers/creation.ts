import type { Account, AppContext } from '../../context';
import { CreationOutcomeUnknownError, outcomeIsUnknown } from '../../providers/errors';
import type { PaymentProvider, ProviderCustomerInput } from '../../providers/types';
import { fromDbDateTime, toDbDateTime } from '../../time';
import { customersRepository, type CustomerRow } from './repository';

/**
 * A customer is made at the provider the way a payment is (see payments/pipeline.ts): our row first
 * (provider_customer_id null: not confirmed yet), then the provider with the key `customer-<id>`,
 * then its id recorded. A lost answer keeps the row; a retry of the request or the job that
 * finishes stalled creations resumes it with the same key, after the provider's key window by
 * looking it up by our id first. Only a certain refusal removes the row: nothing exists there.
 */

/** Mollie replays an idempotency key's answer for one hour; past this age a resume looks the customer up first. */
const PROVIDER_KEY_WINDOW_MS = 55 * 60 * 1000;
const LOOKUP_MARGIN_MS = 10 * 60 * 1000;

export function providerCustomerFrom(row: CustomerRow): ProviderCustomerInput {
  return { name: `${row.first_name} ${row.last_name}`, email: row.email, locale: row.locale, reference: row.id };
}

export const providerCustomerKeyOf = (row: Pick<CustomerRow, 'id'>) => `customer-${row.id}`;

/** Records the provider's id on a row still waiting for it; a concurrent resume may have done so first. */
async function recordProviderCustomer(ctx: AppContext, row: CustomerRow, providerCustomerId: string): Promise<CustomerRow> {
  const now = toDbDateTime(ctx.clock.now());
  const recorded = await customersRepository.recordProviderCustomer(ctx.db, row.account_id, row.id, providerCustomerId, now);
  if (recorded === 1) return { ...row, provider_customer_id: providerCustomerId, updated_at: now };
  // Another resume recorded it first: what it recorded is the answer.
  return (await customersRepository.find(ctx.db, row.account_id, row.id)) ?? { ...row, provider_customer_id: providerCustomerId };
}

export async function sendCustomerToProvider(
  ctx: AppContext,
  provider: PaymentProvider,
  row: CustomerRow,
  options: { resumed: boolean },
): Promise<CustomerRow> {
  const created = fromDbDateTime(row.created_at).getTime();
  if (options.resumed && ctx.clock.now().getTime() - created > PROVIDER_KEY_WINDOW_MS) {
    const found = await provider.findCustomerByReference({ reference: row.id, createdAfter: new Date(created - LOOKUP_MARGIN_MS) });
    if (found) return recordProviderCustomer(ctx, row, found.id);
  }
  let providerCustomer: { id: string };
  try {
    providerCustomer = await provider.createCustomer(providerCustomerFrom(row), providerCustomerKeyOf(row));
  } catch (error) {
    if (outcomeIsUnknown(error)) {
      await customersRepository.touchUnconfirmed(ctx.db, row.account_id, row.id, toDbDateTime(ctx.clock.now()));
      ctx.logger.warn('customer outcome unknown at the provider; kept to be resumed', { accountId: row.account_id, customerId: row.id });
      throw new CreationOutcomeUnknownError(`customer ${row.id}`, error);
    }
    // Certainly refused: no customer exists at the provider, and ours was never confirmed to anyone.
    await customersRepository.deleteUnconfirmed(ctx.db, row.account_id, row.id);
    throw error;
  }
  return recordProviderCustomer(ctx, row, providerCustomer.id);
}

/** Brings a customer that is not confirmed at the provider yet to its outcome there; others as they are. */
export async function resumeCustomer(ctx: AppContext, account: Pick<Account, 'id'>, row: CustomerRow): Promise<CustomerRow> {
  if (row.provider_customer_id) return row;
  return sendCustomerToProvider(ctx, await ctx.providers.forAccount(account), row, { resumed: true });
}

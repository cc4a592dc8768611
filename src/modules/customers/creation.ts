import type { AppContext } from '../../context';
import type { Account } from '../accounts/account';
import { CreationOutcomeUnknownError } from '../../providers/errors';
import type { PaymentProvider, ProviderCustomerInput } from '../../providers/types';
import { fromDbDateTime, msAfter, msBefore, toDbDateTime } from '../../time';
import { createOrRecover, FIRST_RESUME_AFTER_MS, LOOKUP_MARGIN_MS, nextResumeAt, pastKeyWindow } from '../../providers/resumption';
import { customersRepository, type CustomerRow } from './repository';

/**
 * A customer is made at the provider the way a payment is (see payments/pipeline.ts): our row first
 * (provider_customer_id null: not confirmed yet), then the provider with the key `customer-<id>`,
 * then its id recorded. A lost answer (or a rate limit) keeps the row; a retry of the request or the
 * job that finishes stalled creations resumes it with the same key, with backoff, after the
 * provider's key window by looking it up by our id first. A refusal removes the row (nothing exists
 * there), but a refusal of a resumed call only once a look-up by our id finds no customer: the
 * first call may have made one.
 */

export function providerCustomerFrom(row: CustomerRow): ProviderCustomerInput {
  return { name: `${row.first_name} ${row.last_name}`, email: row.email, locale: row.locale, reference: row.id };
}

export const providerCustomerKeyOf = (row: Pick<CustomerRow, 'id'>) => `customer-${row.id}`;

/** When the finishing job takes up a new row that nobody confirmed (a crash between our row and the provider). */
export const firstResumeAfter = (now: Date) => toDbDateTime(msAfter(now, FIRST_RESUME_AFTER_MS));

/** Records the provider's id on a row still waiting for it; a concurrent resume may have done so first. */
async function recordProviderCustomer(ctx: AppContext, row: CustomerRow, providerCustomerId: string): Promise<CustomerRow> {
  const now = toDbDateTime(ctx.clock.now());
  const recorded = await customersRepository.recordProviderCustomer(ctx.db, row.account_id, row.id, providerCustomerId, now);
  if (recorded === 1) return { ...row, provider_customer_id: providerCustomerId, updated_at: now };
  // Another resume recorded it first: what it recorded is the answer.
  return (await customersRepository.find(ctx.db, row.account_id, row.id)) ?? { ...row, provider_customer_id: providerCustomerId };
}

/** Keeps a row whose attempt did not confirm it, to be resumed after a backoff; answers the error that tells so. */
async function keepForLater(ctx: AppContext, row: CustomerRow, cause: unknown): Promise<CreationOutcomeUnknownError> {
  const now = ctx.clock.now();
  const attempts = (row.create_attempts ?? 0) + 1;
  const nextAttemptAt = toDbDateTime(nextResumeAt(now, attempts, cause));
  await customersRepository.keepUnconfirmed(ctx.db, row.account_id, row.id, { attempts, nextAttemptAt, now: toDbDateTime(now) });
  ctx.logger.warn('customer not confirmed at the provider; kept to be resumed', {
    accountId: row.account_id,
    customerId: row.id,
    attempts,
    nextAttemptAt,
  });
  return new CreationOutcomeUnknownError(`customer ${row.id}`, cause);
}

/** The customer an earlier attempt may have made, found by our id; a failed look-up keeps the row. */
async function lookUp(ctx: AppContext, provider: PaymentProvider, row: CustomerRow): Promise<{ id: string } | null> {
  try {
    return await provider.findCustomerByReference({
      reference: row.id,
      createdAfter: msBefore(fromDbDateTime(row.created_at), LOOKUP_MARGIN_MS),
    });
  } catch (error) {
    throw await keepForLater(ctx, row, error);
  }
}

export async function sendCustomerToProvider(
  ctx: AppContext,
  provider: PaymentProvider,
  row: CustomerRow,
  options: { resumed: boolean },
): Promise<CustomerRow> {
  return createOrRecover<{ id: string }, CustomerRow>({
    resumed: options.resumed,
    pastKeyWindow: () => pastKeyWindow(provider, ctx.clock.now().getTime() - fromDbDateTime(row.created_at).getTime()),
    // Someone waits for the answer (the API client, a payer on a link's page): refused credentials are told at once.
    payerWaits: true,
    lookUp: () => lookUp(ctx, provider, row),
    create: () => provider.createCustomer(providerCustomerFrom(row), providerCustomerKeyOf(row)),
    recordFound: (found) => recordProviderCustomer(ctx, row, found.id),
    recordCreated: (created) => recordProviderCustomer(ctx, row, created.id),
    keepForLater: (cause) => keepForLater(ctx, row, cause),
    // Certainly refused: no customer exists at the provider, and ours was never confirmed to anyone.
    refused: async () => {
      await customersRepository.deleteUnconfirmed(ctx.db, row.account_id, row.id);
    },
  });
}

/** Brings a customer that is not confirmed at the provider yet to its outcome there; others as they are. */
export async function resumeCustomer(ctx: AppContext, account: Pick<Account, 'id'>, row: CustomerRow): Promise<CustomerRow> {
  if (row.provider_customer_id) return row;
  return sendCustomerToProvider(ctx, await ctx.providers.forAccount(account), row, { resumed: true });
}

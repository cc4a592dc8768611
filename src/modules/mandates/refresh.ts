import type { AppContext } from '../../context';
import { ProviderNotFoundError } from '../../providers/errors';
import type { ProviderMandate } from '../../providers/types';
import { toDbDateTime } from '../../time';
import { customersRepository } from '../customers/repository';
import { enqueueMandateEvent } from './events';
import { mandatesRepository, type MandateRow } from './repository';
import { providerFieldsOf } from './service';

/** What one refresh found, for the job's summary and the tests. */
export interface MandateRefresh {
  status: MandateRow['status'];
  /** It is valid no more: invalid at the provider, or gone there (revoked). */
  ended: boolean;
  /** Draft subscriptions on it that became active. */
  activated: number;
}

/** The provider's mandate, or null when the provider no longer knows it (some providers drop a revoked mandate). */
async function mandateAtProvider(ctx: AppContext, mandate: MandateRow, providerCustomerId: string): Promise<ProviderMandate | null> {
  const provider = await ctx.providers.forAccount({ id: mandate.account_id });
  try {
    return await provider.getMandate(providerCustomerId, mandate.id);
  } catch (error) {
    if (error instanceof ProviderNotFoundError) return null;
    throw error;
  }
}

/**
 * Asks the provider how one of our mandates stands and records it, with when we asked. Valid: what
 * reacts to a valid mandate runs (ctx.mandateValid, in its phases: takeovers that waited for it move
 * the subscriptions onto it, then the draft subscriptions on it become active). No longer valid — invalid at
 * the provider, or unknown there — it is marked `invalid` with `revoked_at`: nothing is charged on it
 * any more; each charge of its subscriptions that comes due is `not_charged` and a follow-up of kind
 * `mandate` asks the customer to pay by link (billing's charging). A provider error throws, with the
 * mandate marked as asked, so it goes to the back of the queue instead of blocking it.
 */
export async function refreshMandate(ctx: AppContext, mandate: MandateRow): Promise<MandateRefresh> {
  const now = toDbDateTime(ctx.clock.now());
  const customer = await customersRepository.find(ctx.db, mandate.account_id, mandate.customer_id);
  if (!customer?.provider_customer_id) {
    // Nothing to ask the provider by (a mandate is only ever made for a customer it knows).
    await mandatesRepository.update(ctx.db, mandate, { checked_at: now });
    return { status: mandate.status, ended: false, activated: 0 };
  }
  let remote: ProviderMandate | null;
  try {
    remote = await mandateAtProvider(ctx, mandate, customer.provider_customer_id);
  } catch (error) {
    await mandatesRepository.update(ctx.db, mandate, { checked_at: now });
    throw error;
  }
  if (!remote || remote.status === 'invalid') {
    await ctx.db.transaction(async (trx) => {
      await mandatesRepository.update(trx, mandate, { checked_at: now });
      // Revoked at the provider (by the customer's bank, or by hand there): told once, like our own revocation.
      if (await mandatesRepository.markRevoked(trx, mandate, now)) await enqueueMandateEvent(trx, mandate, 'revoked', now);
    });
    ctx.logger.warn('mandate no longer valid at the provider; nothing is charged on it any more', {
      accountId: mandate.account_id,
      mandateId: mandate.id,
      gone: remote === null,
    });
    return { status: 'invalid', ended: true, activated: 0 };
  }
  const fields = providerFieldsOf(remote);
  await mandatesRepository.update(ctx.db, mandate, { ...fields, checked_at: now, updated_at: now });
  if (remote.status !== 'valid') return { status: remote.status, ended: false, activated: 0 };
  // Valid: takeovers that waited for it move now (the old mandates are revoked only then), then its drafts become
  // active (MANDATE_VALID_PHASES). Should a handler fail or the process die after the save, a takeover still
  // waiting brings the mandate back (dueForRefresh).
  const changed = await ctx.mandateValid.run({ ...mandate, ...fields });
  return { status: remote.status, ended: false, activated: changed.drafts };
}

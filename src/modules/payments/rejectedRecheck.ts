import type { AppContext } from '../../context';
import { fromDbDateTime, msAfter, msBefore, toDbDateTime } from '../../time';
import { paymentsRepository, type PaymentRow } from './repository';
import { LOOKUP_MARGIN_MS } from '../../providers/resumption';
import { applyProviderPayment } from './statusChange';

/**
 * A payment given up as `rejected` after an attempt whose outcome was unknown (its look-up at the
 * provider found nothing: a list not up to date yet, a payment made late) is looked for once more a
 * day later, by reconciliation. Its webhook would attach it too, but only if it reaches us: after a
 * change of PUBLIC_URL it goes to the old address.
 */
export const RECHECK_REJECTED_AFTER_MS = 24 * 60 * 60 * 1000;
/** A look-up that could not be made (rate limited, credentials) waits this long, behind the others. */
const RETRY_LOOKUP_AFTER_MS = 60 * 60 * 1000;

/** Marks a payment just given up after an unknown outcome for that one later look-up. */
export function scheduleRecheck(ctx: AppContext, row: Pick<PaymentRow, 'id' | 'account_id'>): Promise<number> {
  const at = toDbDateTime(msAfter(ctx.clock.now(), RECHECK_REJECTED_AFTER_MS));
  return paymentsRepository.updateStatusIfUnchanged(ctx.db, row.account_id, row.id, 'rejected', { next_attempt_at: at });
}

/** Rejected payments whose look-up is due, across accounts, longest waiting first. */
export function rejectedToRecheck(ctx: AppContext, limit: number): Promise<PaymentRow[]> {
  return paymentsRepository.rejectedDueForRecheck(ctx.db, toDbDateTime(ctx.clock.now()), limit);
}

/**
 * Looks the payment up at the provider by our id: found, it is attached (and takes the provider's
 * status); not found, it is left rejected for good. A failed look-up is tried on a later run.
 */
export async function recheckRejected(ctx: AppContext, row: PaymentRow): Promise<PaymentRow> {
  const provider = await ctx.providers.forAccount({ id: row.account_id });
  const createdAfter = msBefore(fromDbDateTime(row.created_at), LOOKUP_MARGIN_MS);
  const at = (next: string | null) =>
    paymentsRepository.updateStatusIfUnchanged(ctx.db, row.account_id, row.id, 'rejected', { next_attempt_at: next });
  let found;
  try {
    found = await provider.findPaymentByReference({ reference: row.id, customerId: row.provider_customer_id, createdAfter });
  } catch (error) {
    await at(toDbDateTime(msAfter(ctx.clock.now(), RETRY_LOOKUP_AFTER_MS)));
    throw error;
  }
  await at(null);
  if (!found) return row;
  ctx.logger.warn('a payment given up as rejected exists at the provider after all; attached', {
    accountId: row.account_id,
    paymentId: row.id,
    providerPaymentId: found.id,
  });
  return applyProviderPayment(ctx, row, found, { answeredInRequest: false });
}

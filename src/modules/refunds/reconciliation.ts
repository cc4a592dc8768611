import type { AppContext } from '../../context';
import { toDbDateTime } from '../../time';
import { paymentsRepository } from '../payments/repository';
import { syncPaymentFromProvider } from '../payments/service';
import { refundsRepository, type RefundRow } from './repository';

/** How long a refund waits for a webhook before reconciliation asks about it (and again after each look). */
export const REFUND_RECHECK_AFTER_MS = 10 * 60 * 1000;

/**
 * Reconciliation of one unsettled refund: its payment (and so its refunds) fetched from the provider, as when the
 * webhook calls; a refund still unsettled after it is looked at again a while later.
 */
export async function reconcileRefund(ctx: AppContext, row: RefundRow): Promise<void> {
  const payment = await paymentsRepository.find(ctx.db, row.account_id, row.payment_id);
  await refundsRepository.touch(ctx.db, row, toDbDateTime(ctx.clock.now()));
  if (!payment?.provider_payment_id) return;
  await syncPaymentFromProvider(ctx, row.account_id, payment.provider_payment_id);
}

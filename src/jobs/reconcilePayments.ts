import type { AppContext } from '../context';
import { paymentsDueForReconciliation, reconcilePayment } from '../modules/payments/reconciliation';
import type { Job, JobResult } from './types';

/** Provider calls per run: at most 600 an hour at every 10 minutes, whatever the backlog. */
const BATCH_SIZE = 100;

/**
 * Fetches payments still open or pending past their method's expiry from the provider, so a lost
 * webhook never leaves a payment hanging. One payment failing is logged and the run goes on.
 */
export async function reconcilePayments(ctx: AppContext, signal: AbortSignal, batchSize = BATCH_SIZE): Promise<JobResult> {
  const result: JobResult = { processed: 0, failed: 0 };
  for (const payment of await paymentsDueForReconciliation(ctx, batchSize)) {
    if (signal.aborted) break;
    try {
      await reconcilePayment(ctx, payment);
      result.processed += 1;
    } catch (error) {
      result.failed += 1;
      ctx.logger.warn('payment reconciliation failed; tried again on a later run', {
        accountId: payment.account_id,
        paymentId: payment.id,
        providerPaymentId: payment.provider_payment_id,
        error: error instanceof Error ? error.message : String(error),
      });
    }
  }
  return result;
}

export const reconcilePaymentsJob: Job = {
  name: 'reconcile-payments',
  schedule: '*/10 * * * *',
  // Renewed every 100 s while running; a crashed run blocks the next one for at most 5 minutes.
  leaseSeconds: 300,
  description: 'Fetches payments still open or pending past their expiry from the provider (lost webhooks)',
  run: (ctx, signal) => reconcilePayments(ctx, signal),
};

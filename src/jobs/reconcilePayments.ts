import type { AppContext } from '../context';
import { paymentsDueForReconciliation, reconcileGivenUpCall, reconcilePayment } from '../modules/payments/reconciliation';
import { recheckRejected, rejectedToRecheck } from '../modules/payments/rejectedRecheck';
import { givenUpCallsToReconcile } from '../modules/payments/webhookCalls';
import { refundsRepository } from '../modules/refunds/repository';
import { reconcileRefund, REFUND_RECHECK_AFTER_MS } from '../modules/refunds/reconciliation';
import { msBefore, toDbDateTime } from '../time';
import type { Job, JobResult } from './types';
import { errorMessage } from '../errors';

/** Provider calls per run: at most 600 an hour at every 10 minutes, whatever the backlog. */
const BATCH_SIZE = 100;

/** One fetch of the run, counted; a failure is logged with `about` and the run goes on (a later run tries again). */
async function counted(
  ctx: AppContext,
  result: JobResult,
  fetch: () => Promise<unknown>,
  failure: string,
  about: Record<string, unknown>,
): Promise<void> {
  try {
    await fetch();
    result.processed += 1;
  } catch (error) {
    result.failed += 1;
    ctx.logger.warn(failure, { ...about, error: errorMessage(error) });
  }
}

/**
 * Fetches from the provider the payments of webhook calls given up after 26 hours (whatever their
 * status here: a refund or chargeback of a paid payment too), then payments still open or pending
 * past their method's expiry, so neither a lost nor a given-up webhook leaves a payment behind; and
 * looks once more for payments given up as rejected after an unknown outcome (see rejectedRecheck.ts).
 * Given-up calls take at most half of a run's provider calls, so they cannot crowd out the rest.
 */
export async function reconcilePayments(ctx: AppContext, signal: AbortSignal, batchSize = BATCH_SIZE): Promise<JobResult> {
  const result: JobResult = { processed: 0, failed: 0 };
  const fetched = new Set<string>();
  for (const call of await givenUpCallsToReconcile(ctx, Math.ceil(batchSize / 2))) {
    if (signal.aborted) return result;
    fetched.add(`${call.account_id} ${call.resource_id}`);
    await counted(
      ctx,
      result,
      () => reconcileGivenUpCall(ctx, call),
      'reconciliation of a given-up webhook call failed; tried again on a later run',
      {
        accountId: call.account_id,
        providerPaymentId: call.resource_id,
      },
    );
  }
  // Payments given up after an unknown outcome, looked for once more by our id (a few: they are rare).
  for (const payment of await rejectedToRecheck(ctx, Math.ceil(batchSize / 10))) {
    if (signal.aborted) return result;
    fetched.add(`${payment.account_id} ${payment.id}`);
    await counted(ctx, result, () => recheckRejected(ctx, payment), 'look-up of a payment given up as rejected failed; tried again later', {
      accountId: payment.account_id,
      paymentId: payment.id,
    });
  }
  // Refunds still under way that no webhook settled: their payments are asked about (a few per run).
  const recheckBefore = toDbDateTime(msBefore(ctx.clock.now(), REFUND_RECHECK_AFTER_MS));
  for (const refund of await refundsRepository.unsettled(ctx.db, recheckBefore, Math.ceil(batchSize / 10))) {
    if (signal.aborted) return result;
    fetched.add(`${refund.account_id} ${refund.payment_id}`);
    await counted(ctx, result, () => reconcileRefund(ctx, refund), 'refund reconciliation failed; tried again on a later run', {
      accountId: refund.account_id,
      refundId: refund.id,
    });
  }
  const left = batchSize - fetched.size;
  for (const payment of left > 0 ? await paymentsDueForReconciliation(ctx, left) : []) {
    if (signal.aborted) break;
    if (fetched.has(`${payment.account_id} ${payment.provider_payment_id}`)) continue;
    await counted(ctx, result, () => reconcilePayment(ctx, payment), 'payment reconciliation failed; tried again on a later run', {
      accountId: payment.account_id,
      paymentId: payment.id,
      providerPaymentId: payment.provider_payment_id,
    });
  }
  return result;
}

export const reconcilePaymentsJob: Job = {
  name: 'reconcile-payments',
  schedule: '*/10 * * * *',
  // Renewed every 100 s while running; a crashed run blocks the next one for at most 5 minutes.
  leaseSeconds: 300,
  description: 'Fetches from the provider the payments of given-up webhook calls and those still open or pending past their expiry',
  run: (ctx, signal) => reconcilePayments(ctx, signal),
};

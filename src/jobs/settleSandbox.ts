import type { AppContext } from '../context';
import { errorMessage } from '../errors';
import { processWebhookCall, recordWebhookCall } from '../modules/payments/webhookCalls';
import { sandboxPaymentsDue, settleDueOf } from '../providers/sandbox/settlement';
import type { Job, JobResult } from './types';

/** Payments settled per run: a run every few seconds keeps up with far more than a sandbox makes. */
const BATCH_SIZE = 100;

/**
 * The sandbox finishing what it started: recurring charges and refunds whose `settle_at` has come settle
 * with their outcome, and each change is reported as the sandbox's checkout reports a payer's choice —
 * a recorded webhook call, processed at once — so our side records it as if the provider had called.
 * The sandbox's change is conditional on the row being pending, so of two runs at once (two processes)
 * only the one that moved a payment reports it; a crash between the change and the recorded call is
 * caught by `reconcile-payments`, as a lost webhook is. Business time is the clock's.
 */
export async function settleSandbox(ctx: AppContext, signal: AbortSignal, batchSize = BATCH_SIZE): Promise<JobResult> {
  const result: JobResult = { processed: 0, failed: 0 };
  if (!ctx.config.sandboxEnabled) return result;
  for (const due of await sandboxPaymentsDue(ctx.db, ctx.clock.now(), batchSize)) {
    if (signal.aborted) break;
    try {
      if (!(await settleDueOf(ctx.db, due, ctx.clock.now()))) continue;
      await processWebhookCall(ctx, await recordWebhookCall(ctx, 'sandbox', due.account_id, due.id));
      result.processed += 1;
    } catch (error) {
      result.failed += 1;
      ctx.logger.warn('the sandbox could not settle a payment; tried again on a later run', {
        accountId: due.account_id,
        providerPaymentId: due.id,
        error: errorMessage(error),
      });
    }
  }
  return result;
}

export const settleSandboxJob: Job = {
  name: 'settle-sandbox',
  // Every 5 seconds (node-cron's optional seconds field): the sandbox settles "within seconds".
  schedule: '*/5 * * * * *',
  // Two runs at once settle each payment once (conditional updates), so every instance runs it, with no lease.
  sharedAcrossInstances: true,
  leaseSeconds: 60,
  description: 'Settles the sandbox recurring charges and refunds due (a few seconds after they were made) and records each change',
  run: (ctx, signal) => settleSandbox(ctx, signal),
};

import type { AppContext } from '../context';
import { refreshMandate } from '../modules/mandates/refresh';
import { mandatesRepository } from '../modules/mandates/repository';
import { revokeDueMandates } from '../modules/mandates/revocation';
import type { Job, JobResult } from './types';
import { errorMessage } from '../errors';

/** Provider calls per run: at most 200 an hour, whatever the number of mandates; the oldest checked go first. */
const BATCH_SIZE = 200;

/**
 * Asks the provider about pending mandates and valid ones that subscriptions are charged on (or a takeover
 * still waits for), so a mandate that became valid activates its draft subscriptions and moves its waiting
 * takeovers, and one revoked or invalid at the provider is noticed before its next charge. One mandate
 * failing is logged and the run goes on.
 */
export async function refreshMandates(ctx: AppContext, signal: AbortSignal, batchSize = BATCH_SIZE): Promise<JobResult> {
  const result: JobResult = { processed: 0, failed: 0 };
  // Old mandates a takeover left unused whose revocation a crash or a provider error left behind.
  const revocations = await revokeDueMandates(ctx);
  result.processed += revocations.revoked + revocations.kept;
  result.failed += revocations.failed;
  for (const mandate of await mandatesRepository.dueForRefresh(ctx.db, batchSize)) {
    if (signal.aborted) break;
    try {
      await refreshMandate(ctx, mandate);
      result.processed += 1;
    } catch (error) {
      result.failed += 1;
      ctx.logger.warn('mandate could not be refreshed; asked again on a later run', {
        accountId: mandate.account_id,
        mandateId: mandate.id,
        error: errorMessage(error),
      });
    }
  }
  return result;
}

export const refreshMandatesJob: Job = {
  name: 'refresh-mandates',
  schedule: '17 * * * *',
  leaseSeconds: 600,
  description:
    'Asks the provider about pending mandates and valid ones in use: activates drafts whose mandate became valid, ' +
    'notices revoked ones; revokes old mandates a takeover left unused',
  run: (ctx, signal) => refreshMandates(ctx, signal),
};

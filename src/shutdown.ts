import type { AppContext } from './context';
import type { Listening } from './http/listen';
import type { Scheduler, SchedulerOptions } from './jobs/scheduler';

/**
 * How long running jobs may go on within a shutdown of `timeoutMs`: asked to stop (their signal
 * aborts) at 60 %, no longer waited for at 80 %, so the background work and the database close still
 * fit before the deadline and a job gets the chance to end cleanly rather than be cut off.
 */
export function jobGraceWithin(timeoutMs: number): Required<SchedulerOptions> {
  return { graceMs: Math.round(timeoutMs * 0.6), abandonMs: Math.round(timeoutMs * 0.2) };
}

/** `deadline`: the work was not done within the timeout; the caller exits anyway. */
export type ShutdownOutcome = 'finished' | 'deadline';

export interface ShutdownParts {
  requests: Listening;
  scheduler: Scheduler | null;
  ctx: AppContext;
  timeoutMs: number;
}

/**
 * What a SIGTERM does, in order: no new connections (at once; idle keep-alive ones closed), the
 * requests in flight answered and the running jobs finished, then the background work they started,
 * and only then the database closed, so no request fails because its database went away. Bounded by
 * `timeoutMs`; what is cut off at the deadline is recovered as after a crash (a client retries with
 * its Idempotency-Key, a payment left `creating` is finished by its job, a job's lease expires).
 */
export async function shutDown({ requests, scheduler, ctx, timeoutMs }: ShutdownParts): Promise<ShutdownOutcome> {
  const { logger } = ctx;
  let waitingFor = 'requests in flight and running jobs';
  const work = async (): Promise<ShutdownOutcome> => {
    logger.info('shutting down: no new connections accepted; answering requests in flight', {
      requestsInFlight: requests.inFlight(),
      timeoutMs,
    });
    await Promise.all([requests.stop(), scheduler?.stop()]);
    waitingFor = 'background work';
    logger.info('shutting down: requests answered; waiting for background work');
    await ctx.background.idle();
    waitingFor = 'the database to close';
    await Promise.all([ctx.db.destroy(), ctx.rateLimits.close()]);
    logger.info('shutting down: database closed; bye');
    return 'finished';
  };
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<ShutdownOutcome>((resolve) => {
    timer = setTimeout(() => resolve('deadline'), timeoutMs);
  });
  try {
    const outcome = await Promise.race([work(), deadline]);
    if (outcome === 'deadline') {
      logger.error('shutdown took longer than SHUTDOWN_TIMEOUT_MS: exiting with work unfinished', {
        timeoutMs,
        waitingFor,
        requestsInFlight: requests.inFlight(),
      });
    }
    return outcome;
  } finally {
    clearTimeout(timer);
  }
}

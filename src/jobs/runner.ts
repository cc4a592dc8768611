import type { AppContext } from '../context';
import { holdLease } from './lease';
import type { Job, JobResult } from './types';
import { errorMessage } from '../errors';
import { stopwatch } from '../time/elapsed';

export type JobRun =
  | { outcome: 'ran'; result: JobResult; durationMs: number }
  /** Another runner holds the job's lease: it is running (or ran a moment ago) elsewhere. */
  | { outcome: 'skipped' }
  | { outcome: 'failed'; error: string; durationMs: number };

/**
 * Runs a job once under its lease. Never throws: a failure is logged and reported, and the lease is
 * given back either way so the next run need not wait for it to expire. `options.signal` asks the
 * job to stop early (shutdown); losing the lease does the same.
 */
export async function runJobOnce(ctx: AppContext, job: Job, owner: string, options: { signal?: AbortSignal } = {}): Promise<JobRun> {
  const run = await runUnderLease(ctx, job, owner, options);
  ctx.metrics.jobRuns.inc({ job: job.name, outcome: run.outcome });
  if (run.outcome !== 'skipped') ctx.metrics.jobDuration.observe({ job: job.name }, run.durationMs / 1000);
  return run;
}

async function runUnderLease(ctx: AppContext, job: Job, owner: string, options: { signal?: AbortSignal }): Promise<JobRun> {
  if (job.sharedAcrossInstances) return runShared(ctx, job, options.signal ?? new AbortController().signal);
  let lease;
  try {
    lease = await holdLease(ctx, job.name, owner, job.leaseSeconds);
  } catch (error) {
    ctx.logger.error('job could not take its lease', { job: job.name, error: errorMessage(error) });
    return { outcome: 'failed', error: errorMessage(error), durationMs: 0 };
  }
  if (!lease) {
    // Every tick on every other instance ends here: not worth more than a debug line.
    ctx.logger.debug('job skipped: its lease is held elsewhere', { job: job.name });
    return { outcome: 'skipped' };
  }
  const timer = stopwatch();
  ctx.logger.debug('job started', { job: job.name, owner });
  const signal = options.signal ? AbortSignal.any([lease.signal, options.signal]) : lease.signal;
  let run: JobRun;
  try {
    const result = await job.run(ctx, signal);
    run = { outcome: 'ran', result, durationMs: timer.elapsedMs() };
    // Jobs tick every few seconds to minutes; only runs that did something are worth an info line.
    const level = result.processed || result.failed ? 'info' : 'debug';
    ctx.logger.log(level, 'job finished', { job: job.name, ...result, durationMs: run.durationMs, aborted: signal.aborted });
  } catch (error) {
    run = { outcome: 'failed', error: errorMessage(error), durationMs: timer.elapsedMs() };
    ctx.logger.error('job failed', {
      job: job.name,
      error: run.error,
      durationMs: run.durationMs,
      stack: error instanceof Error ? error.stack : undefined,
    });
  }
  try {
    await lease.release();
  } catch (error) {
    // The lease then simply expires; the next run waits at most leaseSeconds (plus the second it is stored to).
    ctx.logger.error('job lease could not be released', { job: job.name, error: errorMessage(error) });
  }
  return run;
}

/** A job that shares its own work between instances runs everywhere at once, without the lease. */
async function runShared(ctx: AppContext, job: Job, signal: AbortSignal): Promise<JobRun> {
  const timer = stopwatch();
  try {
    const result = await job.run(ctx, signal);
    const durationMs = timer.elapsedMs();
    ctx.logger.log(result.processed || result.failed ? 'info' : 'debug', 'job finished', {
      job: job.name,
      ...result,
      durationMs,
      aborted: signal.aborted,
    });
    return { outcome: 'ran', result, durationMs };
  } catch (error) {
    const durationMs = timer.elapsedMs();
    ctx.logger.error('job failed', {
      job: job.name,
      error: errorMessage(error),
      durationMs,
      stack: error instanceof Error ? error.stack : undefined,
    });
    return { outcome: 'failed', error: errorMessage(error), durationMs };
  }
}

import { createTask, type Logger as CronLogger, type ScheduledTask } from 'node-cron';
import type { AppContext } from '../context';
import type { Logger } from '../logger';
import { newLeaseOwner } from './lease';
import { runJobOnce } from './runner';
import type { Job } from './types';
import { errorMessage } from '../errors';

export interface Scheduler {
  /**
   * Starts no new runs and resolves once the running ones have finished. After `graceMs` the
   * running jobs are asked to stop (their signal aborts); after `abandonMs` more, it stops waiting,
   * so a shutdown is always bounded. An abandoned job's lease simply expires.
   */
  stop(): Promise<void>;
}

export interface SchedulerOptions {
  /** How long running jobs may go on after stop() before their signal aborts. */
  graceMs?: number;
  /** How long to wait after aborting before giving up on a job that ignores its signal. */
  abandonMs?: number;
}

export interface CatchUpOptions {
  /** How often missed runs are looked for, besides at start (an hour; shorter in tests). */
  catchUpEveryMs?: number;
}

/**
 * A job whose missed runs are made up: asked at the scheduler's start and every hour, it runs at
 * once when `missedRun` says its schedule's last run did not happen (downtime, a time the
 * daylight-saving change skipped, a crash mid-run). The question must be cheap and true only while
 * a run is missing, since every instance asks it.
 */
export interface CatchingUpJob extends Job {
  missedRun(ctx: AppContext): Promise<boolean>;
}

const catchesUp = (job: Job): job is CatchingUpJob => typeof (job as Partial<CatchingUpJob>).missedRun === 'function';

/** node-cron's own messages (a run skipped because the previous one still runs, a missed tick) in our log. */
function cronLogger(logger: Logger): CronLogger {
  const text = (message: string | Error) => (message instanceof Error ? message.message : message);
  return {
    info: (message) => logger.info(`node-cron: ${message}`),
    warn: (message) => logger.warn(`node-cron: ${message}`),
    error: (message, error) => logger.error(`node-cron: ${text(message)}`, { error: error?.message }),
    debug: (message, error) => logger.debug(`node-cron: ${text(message)}`, { error: error?.message }),
  };
}

const sleep = (ms: number) => {
  let timer: NodeJS.Timeout | undefined;
  const done = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), ms);
  });
  return { done, cancel: () => clearTimeout(timer) };
};

/** Schedules every job on its cron expression (UTC); each tick runs the job under its lease. */
export function startScheduler(ctx: AppContext, jobs: Job[], options: SchedulerOptions & CatchUpOptions = {}): Scheduler {
  // Defaults for callers that set none; the server derives both from SHUTDOWN_TIMEOUT_MS (shutdown.ts).
  const graceMs = options.graceMs ?? 20_000;
  const abandonMs = options.abandonMs ?? 5_000;
  // One owner per process: the lease table then shows which instance runs what.
  const owner = newLeaseOwner();
  const shutdown = new AbortController();
  const running = new Set<Promise<unknown>>();
  let stopping = false;
  const logger = cronLogger(ctx.logger);

  // Jobs running in this process: a tick or a catch-up finding its job running starts nothing.
  const busy = new Set<string>();
  const launch = async (job: Job) => {
    // A tick node-cron had already begun when stop() was called starts nothing.
    if (stopping || busy.has(job.name)) return;
    busy.add(job.name);
    const run = runJobOnce(ctx, job, owner, { signal: shutdown.signal });
    running.add(run);
    try {
      await run;
    } finally {
      running.delete(run);
      busy.delete(job.name);
    }
  };

  const timingOf = (job: Job) => job.timing?.(ctx.config) ?? { schedule: job.schedule, timezone: 'UTC' };
  const tasks: ScheduledTask[] = jobs.map((job) =>
    createTask(
      timingOf(job).schedule,
      () => launch(job),
      // noOverlap: a run still going when its next tick comes makes that tick a no-op in this process.
      { name: job.name, timezone: timingOf(job).timezone, noOverlap: true, logger },
    ),
  );
  for (const task of tasks) void task.start();
  ctx.logger.info('job scheduler started', {
    owner,
    jobs: jobs.map((job) => `${job.name} (${timingOf(job).schedule} ${timingOf(job).timezone})`),
  });

  const catchingUp = jobs.filter(catchesUp);
  const catchUp = async () => {
    for (const job of catchingUp) {
      if (stopping || busy.has(job.name)) continue;
      try {
        if (!(await job.missedRun(ctx))) continue;
      } catch (error) {
        ctx.logger.error('could not check for a missed run', {
          job: job.name,
          error: errorMessage(error),
        });
        continue;
      }
      ctx.logger.warn('a scheduled run did not happen; running it now', { job: job.name });
      await launch(job);
    }
  };
  const checkMissedRuns = () => {
    const check = catchUp();
    running.add(check);
    void check.finally(() => running.delete(check));
  };
  const catchUpTimer = catchingUp.length ? setInterval(checkMissedRuns, options.catchUpEveryMs ?? 60 * 60 * 1000) : undefined;
  catchUpTimer?.unref();
  if (catchingUp.length) checkMissedRuns();

  let stopped: Promise<void> | undefined;
  const stop = async () => {
    stopping = true;
    clearInterval(catchUpTimer);
    // destroy() also removes the task from node-cron's process-wide registry.
    await Promise.all(tasks.map(async (task) => task.destroy()));
    if (running.size) {
      ctx.logger.info('waiting for running jobs to finish', { jobs: running.size, graceMs });
      const grace = sleep(graceMs);
      if ((await Promise.race([Promise.allSettled([...running]), grace.done])) === 'timeout') {
        ctx.logger.warn('jobs still running after the grace period; asking them to stop', { jobs: running.size });
        shutdown.abort(new Error('shutting down'));
        const abandon = sleep(abandonMs);
        if ((await Promise.race([Promise.allSettled([...running]), abandon.done])) === 'timeout') {
          ctx.logger.error('jobs ignored the request to stop; no longer waiting for them', { jobs: running.size });
        }
        abandon.cancel();
      }
      grace.cancel();
    }
    ctx.logger.info('job scheduler stopped');
  };
  return {
    stop() {
      stopped ??= stop();
      return stopped;
    },
  };
}

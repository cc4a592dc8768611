import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { performance } from 'node:perf_hooks';
import type { AppContext } from '../context';
import { isUniqueViolation } from '../db/connect';
import { jobLeasesRepository } from './leaseRepository';
import { errorMessage } from '../errors';

/**
 * A lease on a job name in table job_leases: whoever holds an unexpired lease runs the job, so with
 * several instances against one database each run happens on exactly one of them. Every change is
 * one conditional statement whose affected-row count says who won, which works the same on SQLite
 * and MySQL without locks held across statements. Times come from the database's clock only, so
 * instances whose clocks disagree still agree on who holds a lease. Each acquisition counts the
 * lease's generation up; renewing and releasing need the holder's generation, so a holder that lost
 * its lease can never touch its successor's.
 */

/** One acquisition of a job's lease: by whom, and which generation it got. */
export interface AcquiredLease {
  name: string;
  owner: string;
  generation: number;
}

/** Who is asking: readable in the table (host, pid) and unique even for two runners in one process. */
export function newLeaseOwner(): string {
  return `${hostname().slice(0, 64)}:${process.pid}:${randomBytes(6).toString('hex')}`;
}

function assertLeaseSeconds(leaseSeconds: number): void {
  if (!Number.isInteger(leaseSeconds) || leaseSeconds < 1) throw new RangeError(`a job lease lasts whole seconds ≥ 1, not ${leaseSeconds}`);
}

/**
 * Takes the lease when nobody holds it or the holder's lease has expired, and says which generation
 * we got; null when someone else holds it. An owner never re-enters its own unexpired lease: the
 * same job does not run twice at once in one process either.
 */
export async function acquireLease(ctx: AppContext, name: string, owner: string, leaseSeconds: number): Promise<AcquiredLease | null> {
  assertLeaseSeconds(leaseSeconds);
  const takeOver = async (): Promise<AcquiredLease | null> => {
    const won = await jobLeasesRepository.takeIfFree(ctx.db, name, owner, leaseSeconds);
    if (won !== 1) return null;
    // The generation can change only by another acquisition, and the owner is ours alone, so reading
    // by owner gives the generation we just wrote; nothing when the lease was already lost again.
    // (No transaction around the two: on SQLite it would hold the write lock across an await.)
    const row = await jobLeasesRepository.generationHeldBy(ctx.db, name, owner);
    return row ? { name, owner, generation: row.generation } : null;
  };
  const taken = await takeOver();
  if (taken) return taken;
  try {
    // The first run of a job anywhere: the row does not exist yet and inserting it is taking it.
    await jobLeasesRepository.insertTaken(ctx.db, name, owner, leaseSeconds);
    return { name, owner, generation: 1 };
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
  }
  // Another instance inserted it between our two statements; it may have released it already.
  return takeOver();
}

/** Extends our lease to the database's now plus its length; false when it is no longer ours (taken over). */
export async function renewLease(ctx: AppContext, lease: AcquiredLease, leaseSeconds: number): Promise<boolean> {
  assertLeaseSeconds(leaseSeconds);
  const { name, owner, generation } = lease;
  return (await jobLeasesRepository.renew(ctx.db, { name, owner, generation }, leaseSeconds)) === 1;
}

/** Gives the lease back so the next run, on any instance, need not wait for it to expire. */
export async function releaseLease(ctx: AppContext, lease: AcquiredLease): Promise<void> {
  await jobLeasesRepository.release(ctx.db, lease);
}

export interface HeldLease {
  /** This acquisition's generation: higher than any before it, so writes can be fenced with it. */
  generation: number;
  /** Aborted when the lease is lost or may be lost while the job runs: the job must stop, someone else may run it. */
  signal: AbortSignal;
  /** Stops renewing and gives the lease back. */
  release(): Promise<void>;
}

/**
 * Acquires the lease and keeps renewing it every third of its length while the caller works, so a
 * long run keeps it and a crashed one loses it soon. Null when someone else holds it.
 *
 * When the lease cannot be confirmed for two thirds of its length (renewals failing or hanging in a
 * database stall), the signal aborts. The database lets another instance in no earlier than the full
 * length after our last confirming statement was sent, and we count from just before sending it, on
 * this process's monotonic clock: the last third is the margin for timers firing late and for the
 * job to notice the abort and stop before anyone else can start.
 */
export async function holdLease(ctx: AppContext, name: string, owner: string, leaseSeconds: number): Promise<HeldLease | null> {
  const leaseMs = leaseSeconds * 1000;
  const renewEveryMs = leaseMs / 3;
  // A failed renewal is tried again sooner, so a passing error gets a few more tries before the deadline.
  const retryAfterMs = leaseMs / 9;
  const deadlineMs = (leaseMs * 2) / 3;

  let confirmedAt = performance.now();
  const lease = await acquireLease(ctx, name, owner, leaseSeconds);
  if (!lease) return null;

  const lost = new AbortController();
  const about = { job: name, owner, generation: lease.generation };
  let stopped = false;
  let renewing: Promise<void> = Promise.resolve();
  let renewalTimer: NodeJS.Timeout | undefined;
  let deadlineTimer: NodeJS.Timeout | undefined;

  const stop = () => {
    stopped = true;
    clearTimeout(renewalTimer);
    clearTimeout(deadlineTimer);
  };
  const abort = (reason: string) => {
    stop();
    lost.abort(new Error(reason));
  };

  // Its own timer, not the renewal's: a renewal hanging in a database stall must not hold it up.
  const watchDeadline = () => {
    const unconfirmedMs = performance.now() - confirmedAt;
    if (unconfirmedMs < deadlineMs) {
      deadlineTimer = setTimeout(watchDeadline, deadlineMs - unconfirmedMs);
      deadlineTimer.unref();
      return;
    }
    ctx.logger.error('job lease could not be renewed in time; aborting the run', { ...about, unconfirmedMs: Math.round(unconfirmedMs) });
    abort(`lease of job ${name} could not be renewed in time`);
  };

  const renew = async () => {
    const askedAt = performance.now();
    let renewed: boolean;
    try {
      renewed = await renewLease(ctx, lease, leaseSeconds);
    } catch (error) {
      if (stopped) return;
      ctx.logger.error('job lease renewal failed', { ...about, error: errorMessage(error) });
      scheduleRenewal(retryAfterMs);
      return;
    }
    if (stopped) return;
    if (renewed) {
      confirmedAt = askedAt;
      scheduleRenewal(renewEveryMs);
      return;
    }
    ctx.logger.error('job lease lost while running; aborting the run', about);
    abort(`lease of job ${name} lost: another instance took it over`);
  };

  // Real time, not ctx.clock: the renewal must happen while the process runs, whatever the clock says.
  const scheduleRenewal = (afterMs: number) => {
    renewalTimer = setTimeout(() => {
      renewing = renew();
    }, afterMs);
    renewalTimer.unref();
  };

  scheduleRenewal(renewEveryMs);
  watchDeadline();
  return {
    generation: lease.generation,
    signal: lost.signal,
    async release() {
      stop();
      await renewing;
      await releaseLease(ctx, lease);
    },
  };
}

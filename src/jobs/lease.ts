import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { AppContext } from '../context';
import { isUniqueViolation } from '../db/connect';
import { toDbDateTime } from '../time';

/**
 * A lease on a job name in table job_leases: whoever holds an unexpired lease runs the job, so with
 * several instances against one database each run happens on exactly one of them. Every change is
 * one conditional statement whose affected-row count says who won, which works the same on SQLite
 * and MySQL without locks held across statements.
 */

interface JobLeaseRow {
  name: string;
  owner: string | null;
  expires_at: string | null;
  acquired_at: string | null;
}

const leases = (ctx: AppContext) => ctx.db<JobLeaseRow>('job_leases');

/** Who is asking: readable in the table (host, pid) and unique even for two runners in one process. */
export function newLeaseOwner(): string {
  return `${hostname().slice(0, 64)}:${process.pid}:${randomBytes(6).toString('hex')}`;
}

const expiryFrom = (ctx: AppContext, leaseSeconds: number) => toDbDateTime(new Date(ctx.clock.now().getTime() + leaseSeconds * 1000));

/**
 * Takes the lease when nobody holds it or the holder's lease has expired (a crashed instance).
 * An owner never re-enters its own unexpired lease: the same job does not run twice at once in
 * one process either.
 */
export async function acquireLease(ctx: AppContext, name: string, owner: string, leaseSeconds: number): Promise<boolean> {
  const now = toDbDateTime(ctx.clock.now());
  const taken = { owner, expires_at: expiryFrom(ctx, leaseSeconds), acquired_at: now };
  const takeOver = () =>
    leases(ctx)
      .where({ name })
      .andWhere((free) => free.whereNull('owner').orWhereNull('expires_at').orWhere('expires_at', '<=', now))
      .update(taken);
  if ((await takeOver()) === 1) return true;
  try {
    // The first run of a job anywhere: the row does not exist yet and inserting it is taking it.
    await leases(ctx).insert({ name, ...taken });
    return true;
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
  }
  // Another instance inserted it between our two statements; it may have released it already.
  return (await takeOver()) === 1;
}

/** Extends our lease; false when it is no longer ours (it expired and was taken over). */
export async function renewLease(ctx: AppContext, name: string, owner: string, leaseSeconds: number): Promise<boolean> {
  return (await leases(ctx).where({ name, owner }).update({ expires_at: expiryFrom(ctx, leaseSeconds) })) === 1;
}

/** Gives the lease back so the next run, on any instance, need not wait for it to expire. */
export async function releaseLease(ctx: AppContext, name: string, owner: string): Promise<void> {
  await leases(ctx).where({ name, owner }).update({ owner: null, expires_at: null });
}

export interface HeldLease {
  /** Aborted when the lease is lost while the job runs: the job must stop, someone else may run it. */
  signal: AbortSignal;
  /** Stops renewing and gives the lease back. */
  release(): Promise<void>;
}

/**
 * Acquires the lease and keeps renewing it every third of its length while the caller works, so a
 * long run keeps it and a crashed one loses it soon. Null when someone else holds it.
 */
export async function holdLease(ctx: AppContext, name: string, owner: string, leaseSeconds: number): Promise<HeldLease | null> {
  if (!(await acquireLease(ctx, name, owner, leaseSeconds))) return null;
  const lost = new AbortController();
  let renewing: Promise<void> = Promise.resolve();
  const renew = async () => {
    try {
      if (await renewLease(ctx, name, owner, leaseSeconds)) return;
      ctx.logger.warn('job lease lost while running; aborting the run', { job: name, owner });
      lost.abort(new Error(`lease of job ${name} lost`));
      clearInterval(timer);
    } catch (error) {
      // A passing database error: the next renewal tries again before the lease runs out.
      ctx.logger.error('job lease renewal failed', { job: name, owner, error: error instanceof Error ? error.message : String(error) });
    }
  };
  // Real time, not ctx.clock: the renewal must happen while the process runs, whatever the clock says.
  const timer = setInterval(() => {
    renewing = renew();
  }, (leaseSeconds * 1000) / 3);
  timer.unref();
  return {
    signal: lost.signal,
    async release() {
      clearInterval(timer);
      await renewing;
      await releaseLease(ctx, name, owner);
    },
  };
}

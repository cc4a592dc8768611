import type { Config } from '../config';
import type { AppContext } from '../context';

/**
 * A background job. Jobs are thin: take the lease (done by the runner), pick due items, call a
 * service per item, log each failure and go on. `run` must be safe to call again at any time.
 */
export interface Job {
  /** Stable name: the lease key and the CLI's `jobs run <name>`. */
  name: string;
  /** node-cron expression, in UTC. */
  schedule: string;
  /** A schedule the operator sets (`BILLING_CRON`, in APP_TIMEZONE); replaces `schedule` when present. */
  timing?: (config: Config) => { schedule: string; timezone: string };
  /**
   * Runs on every instance at once, without the lease: the job shares its work between instances
   * itself (billing claims charge rows), so N instances finish it N times faster.
   */
  sharedAcrossInstances?: boolean;
  /** How long one run may hold the lease before another instance may take it over. */
  leaseSeconds: number;
  description: string;
  run(ctx: AppContext, signal: AbortSignal): Promise<JobResult>;
}

/** What a run did, for the log line and the CLI. */
export interface JobResult {
  processed: number;
  failed: number;
}

import type { Command } from 'commander';
import type { AppContext } from '../context';
import { allJobs, findJob } from '../jobs';
import { newLeaseOwner } from '../jobs/lease';
import { reconcilePaymentsJob } from '../jobs/reconcilePayments';
import { runJobOnce } from '../jobs/runner';
import type { Job } from '../jobs/types';
import { CliUsageError, type CliIo } from './io';

/** A job run that failed: one line and exit code 1; the stack is in the job's log line. */
export class JobFailedError extends Error {}

/** Runs one job now, under the same lease as the scheduler, and prints one summary line. */
async function runNow(ctx: AppContext, io: CliIo, job: Job): Promise<void> {
  const run = await runJobOnce(ctx, job, newLeaseOwner());
  // Status changes start first webhook deliveries in the background; the process exits after this.
  await ctx.background.idle();
  if (run.outcome === 'failed') throw new JobFailedError(`job ${job.name} failed: ${run.error}`);
  if (run.outcome === 'skipped') {
    io.out(`${job.name}: not run, it is running elsewhere right now (its lease is held)`);
    return;
  }
  io.out(`${job.name}: ${run.result.processed} processed, ${run.result.failed} failed in ${(run.durationMs / 1000).toFixed(1)} s`);
}

export function registerJobCommands(program: Command, ctx: AppContext, io: CliIo, jobs: Job[] = allJobs): void {
  program
    .command('reconcile')
    .description('fetch payments still open or pending past their expiry from the provider, once')
    .action(() => runNow(ctx, io, reconcilePaymentsJob));

  const group = program.command('jobs').description('background jobs (scheduled by the server unless CRON=off)');

  group
    .command('list')
    .description('list jobs: name, schedule (UTC unless named), description')
    .action(() => {
      for (const job of jobs) {
        const timing = job.timing?.(ctx.config);
        io.out(`${job.name}  ${timing ? `${timing.schedule} ${timing.timezone}` : job.schedule}  ${job.description}`);
      }
    });

  group
    .command('run')
    .description('run one job now, once, unless another instance is running it')
    .argument('<name>', 'job name, see `jobs list`')
    .action((name: string) => {
      const job = findJob(name, jobs);
      if (!job) throw new CliUsageError(`No job named "${name}"; \`jobs list\` shows them`);
      return runNow(ctx, io, job);
    });
}

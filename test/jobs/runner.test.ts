import { runJobOnce } from '../../src/jobs/runner';
import type { Job } from '../../src/jobs/types';
import { TEST_DATABASES } from '../support/databases';
import { createTwoContexts, type TwoContexts } from '../support/twoContexts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A job whose body takes a while and counts how often it ran. */
function slowCountingJob(name: string, bodyMs = 200): Job & { invocations: number } {
  const job = {
    name,
    schedule: '* * * * *',
    leaseSeconds: 60,
    description: 'test job',
    invocations: 0,
    async run() {
      job.invocations += 1;
      await sleep(bodyMs);
      return { processed: 1, failed: 0 };
    },
  };
  return job;
}

describe.each(TEST_DATABASES)('job runner on %s', (kind) => {
  let t: TwoContexts;

  beforeAll(async () => {
    t = await createTwoContexts(kind);
  });
  afterAll(() => t.close());

  const ownerOf = async (name: string) => (await t.first.db('job_leases').where({ name }).first<{ owner: string | null }>('owner'))?.owner;

  it('When two job runners against the same database start the same job at the same time, then its body runs once', async () => {
    // Round 1 races on inserting the lease row, the later rounds on taking over the released row.
    const job = slowCountingJob('race-job');
    for (let round = 1; round <= 5; round += 1) {
      const runs = await Promise.all([runJobOnce(t.first, job, 'instance-a'), runJobOnce(t.second, job, 'instance-b')]);
      expect(runs.map((run) => run.outcome).sort()).toEqual(['ran', 'skipped']);
      expect(job.invocations).toBe(round);
      expect(await ownerOf('race-job')).toBeNull();
    }
  });

  it('When a run finishes, then it reports its result and the next run, on the other instance, takes the lease at once', async () => {
    const job = slowCountingJob('sequential-job', 10);
    expect(await runJobOnce(t.first, job, 'instance-a')).toMatchObject({ outcome: 'ran', result: { processed: 1, failed: 0 } });
    expect(await runJobOnce(t.second, job, 'instance-b')).toMatchObject({ outcome: 'ran' });
    expect(job.invocations).toBe(2);
    expect(
      t.logs.lines.some((line) => line.includes('"job finished"') && line.includes('sequential-job') && line.includes('durationMs')),
    ).toBe(true);
  });

  it('When the body throws, then the run reports and logs the failure and gives the lease back', async () => {
    const job: Job = {
      name: 'failing-job',
      schedule: '* * * * *',
      leaseSeconds: 60,
      description: 'test job',
      run: async () => {
        throw new Error('provider exploded');
      },
    };
    expect(await runJobOnce(t.first, job, 'instance-a')).toMatchObject({ outcome: 'failed', error: 'provider exploded' });
    expect(await ownerOf('failing-job')).toBeNull();
    expect(t.logs.lines.some((line) => line.includes('"job failed"') && line.includes('provider exploded'))).toBe(true);
  });

  it('When the caller aborts its signal, then the body sees it aborted', async () => {
    let sawAbort = false;
    const job: Job = {
      name: 'abortable-job',
      schedule: '* * * * *',
      leaseSeconds: 60,
      description: 'test job',
      run: (_ctx, signal) =>
        new Promise((resolve) => {
          signal.addEventListener('abort', () => {
            sawAbort = true;
            resolve({ processed: 0, failed: 0 });
          });
        }),
    };
    const controller = new AbortController();
    const run = runJobOnce(t.first, job, 'instance-a', { signal: controller.signal });
    await sleep(50);
    controller.abort();
    expect(await run).toMatchObject({ outcome: 'ran' });
    expect(sawAbort).toBe(true);
  });
});

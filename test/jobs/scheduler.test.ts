import { startScheduler } from '../../src/jobs/scheduler';
import type { Job, JobResult } from '../../src/jobs/types';
import { TEST_DATABASES } from '../support/databases';
import { createTwoContexts, type TwoContexts } from '../support/twoContexts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitFor(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await sleep(20);
  }
}

/** A job on a once-a-second schedule whose runs the test finishes by hand. */
function heldJob(name: string) {
  const state = { started: 0, finished: 0, sawAbort: false, finish: () => {} };
  const job: Job = {
    name,
    schedule: '*/1 * * * * *',
    leaseSeconds: 60,
    description: 'test job',
    run: (_ctx, signal) =>
      new Promise<JobResult>((resolve) => {
        state.started += 1;
        const done = () => {
          state.finished += 1;
          resolve({ processed: 1, failed: 0 });
        };
        state.finish = done;
        signal.addEventListener('abort', () => {
          state.sawAbort = true;
          done();
        });
      }),
  };
  return { job, state };
}

describe.each(TEST_DATABASES)('job scheduler on %s', (kind) => {
  let t: TwoContexts;

  beforeAll(async () => {
    t = await createTwoContexts(kind);
  });
  afterAll(() => t.close());

  const ownerOf = async (name: string) => (await t.first.db('job_leases').where({ name }).first<{ owner: string | null }>('owner'))?.owner;

  it('When a job is scheduled every second, then it runs on its schedule, under its lease', async () => {
    let runs = 0;
    const job: Job = {
      name: 'every-second',
      schedule: '*/1 * * * * *',
      leaseSeconds: 60,
      description: 'test job',
      run: async () => {
        runs += 1;
        return { processed: 0, failed: 0 };
      },
    };
    const scheduler = startScheduler(t.first, [job]);
    await waitFor(() => runs >= 2);
    await scheduler.stop();
    const after = runs;
    await sleep(1_200);
    expect(runs).toBe(after);
    expect(await ownerOf('every-second')).toBeNull();
  });

  it('When stop() is called while a job runs, then it starts nothing new and resolves only after the job finished', async () => {
    const { job, state } = heldJob('held-job');
    const scheduler = startScheduler(t.first, [job]);
    await waitFor(() => state.started === 1);
    // The next ticks come while the run is still going: no second run in this process.
    await sleep(1_200);
    expect(state.started).toBe(1);

    let stopped = false;
    const stopping = scheduler.stop().then(() => {
      stopped = true;
    });
    await sleep(300);
    expect(stopped).toBe(false);
    expect(await ownerOf('held-job')).not.toBeNull();

    state.finish();
    await stopping;
    expect(state).toMatchObject({ started: 1, finished: 1, sawAbort: false });
    expect(await ownerOf('held-job')).toBeNull();
  });

  it('When a running job outlasts the grace period, then stop() aborts its signal, so shutdown is bounded', async () => {
    const { job, state } = heldJob('slow-job');
    const scheduler = startScheduler(t.first, [job], { graceMs: 200 });
    await waitFor(() => state.started === 1);
    const began = Date.now();
    await scheduler.stop();
    expect(Date.now() - began).toBeLessThan(2_000);
    expect(state).toMatchObject({ finished: 1, sawAbort: true });
    expect(t.logs.lines.some((line) => line.includes('jobs still running after the grace period'))).toBe(true);
  });

  it('When a job ignores its aborted signal, then stop() gives up waiting after the abandon period', async () => {
    const job: Job = {
      name: 'stubborn-job',
      schedule: '*/1 * * * * *',
      leaseSeconds: 60,
      description: 'test job',
      run: () => new Promise<JobResult>((resolve) => setTimeout(() => resolve({ processed: 0, failed: 0 }), 1_500)),
    };
    let started = false;
    const scheduler = startScheduler(t.first, [{ ...job, run: (ctx, signal) => ((started = true), job.run(ctx, signal)) }], {
      graceMs: 100,
      abandonMs: 100,
    });
    await waitFor(() => started);
    const began = Date.now();
    await scheduler.stop();
    expect(Date.now() - began).toBeLessThan(1_000);
    expect(t.logs.lines.some((line) => line.includes('jobs ignored the request to stop'))).toBe(true);
    // Let the abandoned body end before the database closes.
    await sleep(1_500);
  });

  it('When two instances schedule the same job, then each tick runs it on one of them only', async () => {
    const active = { now: 0, most: 0, runs: 0 };
    const job: Job = {
      name: 'shared-job',
      schedule: '*/1 * * * * *',
      leaseSeconds: 60,
      description: 'test job',
      run: async () => {
        active.now += 1;
        active.runs += 1;
        active.most = Math.max(active.most, active.now);
        await sleep(300);
        active.now -= 1;
        return { processed: 1, failed: 0 };
      },
    };
    const first = startScheduler(t.first, [job]);
    const second = startScheduler(t.second, [job]);
    await waitFor(() => active.runs >= 3);
    await Promise.all([first.stop(), second.stop()]);
    expect(active.most).toBe(1);
  });
});

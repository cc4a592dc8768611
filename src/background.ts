import type { Logger } from './logger';
import { errorMessage } from './errors';
import { monotonicMs } from './time/elapsed';

/**
 * Work started after an answer was sent (webhook processing, first delivery attempts). Tracked so
 * that shutdown can wait for it and tests can wait until it has settled. Failures are logged here:
 * the durable tables and their jobs retry whatever did not finish.
 */
export interface LaneOptions {
  /** Tasks of the lane running at once. */
  limit: number;
  /** Tasks kept waiting in memory at most. */
  maxWaiting: number;
  /** No task starts until this long has passed without a new one arriving… */
  quietMs: number;
  /** …unless the oldest waiting one has waited this long. */
  maxDeferMs: number;
}

interface WaitingTask {
  taskName: string;
  task: () => Promise<unknown>;
  since: number;
}

interface LaneState {
  options: LaneOptions;
  active: number;
  waiting: WaitingTask[];
  lastArrival: number;
  timer: NodeJS.Timeout | null;
}

export class BackgroundTasks {
  private readonly running = new Set<Promise<void>>();
  private readonly lanes = new Map<string, LaneState>();

  constructor(private readonly logger: Logger) {}

  run(name: string, task: () => Promise<unknown>): void {
    const promise: Promise<void> = task()
      .then(() => undefined)
      .catch((error: unknown) => {
        this.logger.error('background task failed', { task: name, error: errorMessage(error) });
      })
      .finally(() => this.running.delete(promise));
    this.running.add(promise);
  }

  /**
   * Like `run`, for bursts of small jobs (a provider's webhook calls): at most `limit` of a lane at a
   * time, and none started while more are still arriving (until `quietMs` pass without one, or the
   * oldest has waited `maxDeferMs`), so answering the burst comes before working through it. Waiting
   * tasks are kept in memory up to `maxWaiting`; beyond that a task is left to the job that sweeps
   * its durable table.
   */
  runInLane(lane: LaneOptions & { name: string }, taskName: string, task: () => Promise<unknown>): void {
    let state = this.lanes.get(lane.name);
    if (!state) {
      state = { options: lane, active: 0, waiting: [], lastArrival: 0, timer: null };
      this.lanes.set(lane.name, state);
    }
    if (state.waiting.length >= state.options.maxWaiting) {
      this.logger.debug('background lane full; the job takes this task', { lane: lane.name, task: taskName });
      return;
    }
    const now = monotonicMs();
    state.lastArrival = now;
    state.waiting.push({ taskName, task, since: now });
    this.pump(state);
  }

  private pump(state: LaneState): void {
    const { limit, quietMs, maxDeferMs } = state.options;
    while (state.active < limit && state.waiting.length) {
      const now = monotonicMs();
      const oldest = state.waiting[0] as WaitingTask;
      const quietFor = now - state.lastArrival;
      if (quietFor < quietMs && now - oldest.since < maxDeferMs) {
        if (!state.timer) {
          const wait = Math.max(1, Math.min(quietMs - quietFor, maxDeferMs - (now - oldest.since)));
          state.timer = setTimeout(() => {
            state.timer = null;
            this.pump(state);
          }, wait);
        }
        return;
      }
      state.waiting.shift();
      state.active += 1;
      this.run(oldest.taskName, () =>
        oldest.task().finally(() => {
          state.active -= 1;
          this.pump(state);
        }),
      );
    }
  }

  /** Resolves once nothing is running or waiting in a lane, including tasks started by tasks. */
  async idle(): Promise<void> {
    for (;;) {
      if (this.running.size) await Promise.all([...this.running]);
      else if ([...this.lanes.values()].some((lane) => lane.waiting.length)) await new Promise((resolve) => setTimeout(resolve, 5));
      else return;
    }
  }
}

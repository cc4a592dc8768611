import type { Logger } from './logger';

/**
 * Work started after an answer was sent (webhook processing, first delivery attempts). Tracked so
 * that shutdown can wait for it and tests can wait until it has settled. Failures are logged here:
 * the durable tables and their jobs retry whatever did not finish.
 */
export class BackgroundTasks {
  private readonly running = new Set<Promise<void>>();

  constructor(private readonly logger: Logger) {}

  run(name: string, task: () => Promise<unknown>): void {
    const promise: Promise<void> = task()
      .then(() => undefined)
      .catch((error: unknown) => {
        this.logger.error('background task failed', { task: name, error: error instanceof Error ? error.message : String(error) });
      })
      .finally(() => this.running.delete(promise));
    this.running.add(promise);
  }

  /** Resolves once nothing is running, including tasks started by tasks. */
  async idle(): Promise<void> {
    while (this.running.size) await Promise.all([...this.running]);
  }
}

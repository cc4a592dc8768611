import { monotonicMs } from '../../time/elapsed';
/**
 * A per-store request budget: at most `concurrency` requests in flight and at most `perSecond`
 * started per second, so a sync never floods a small shop on shared hosting.
 */
export class RequestBudget {
  private inFlight = 0;
  private readonly waiting: Array<() => void> = [];
  private nextStart = 0;

  constructor(
    readonly concurrency: number,
    readonly perSecond: number,
  ) {}

  async run<T>(work: () => Promise<T>): Promise<T> {
    await this.acquire();
    try {
      return await work();
    } finally {
      this.release();
    }
  }

  private async acquire(): Promise<void> {
    // A finished request hands its slot straight to the longest waiter, so none can be taken twice.
    if (this.inFlight >= this.concurrency) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.inFlight += 1;
    // Spread starts evenly: each request starts at least 1/perSecond after the previous one.
    const now = monotonicMs();
    const start = Math.max(now, this.nextStart);
    this.nextStart = start + 1000 / this.perSecond;
    if (start > now) await new Promise((resolve) => setTimeout(resolve, start - now));
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.inFlight -= 1;
  }
}

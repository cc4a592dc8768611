import { BackgroundTasks } from '../../src/background';
import { createLogger } from '../../src/logger';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A lane runs a burst's tasks a few at a time, and only once the burst has stopped arriving. */
describe('background lanes', () => {
  const lane = { name: 'test', limit: 2, maxWaiting: 5, quietMs: 40, maxDeferMs: 400 };

  function recorder() {
    const events: string[] = [];
    let running = 0;
    let most = 0;
    const task = (id: number) => async () => {
      running += 1;
      most = Math.max(most, running);
      events.push(`start ${id}`);
      await sleep(10);
      running -= 1;
    };
    return { events, task, most: () => most };
  }

  it('When tasks keep arriving, then none starts until the arrivals pause; then at most `limit` run at once, all of them', async () => {
    const background = new BackgroundTasks(createLogger('error'));
    const { events, task, most } = recorder();
    for (let id = 0; id < 5; id += 1) {
      background.runInLane(lane, `task ${id}`, task(id));
      await sleep(10); // arriving faster than quietMs
      expect(events).toEqual([]);
    }
    await background.idle();
    expect(events).toEqual(['start 0', 'start 1', 'start 2', 'start 3', 'start 4']);
    expect(most()).toBe(2);
  });

  it('When arrivals never pause, then the oldest task still starts once it has waited maxDeferMs', async () => {
    const background = new BackgroundTasks(createLogger('error'));
    const { events, task } = recorder();
    const steady = { ...lane, name: 'steady', maxWaiting: 1_000 };
    const began = Date.now();
    for (let id = 0; !events.length && Date.now() - began < 2_000; id += 1) {
      background.runInLane(steady, `task ${id}`, task(id));
      await sleep(15); // a new task every 15 ms, never a 40 ms pause
    }
    const waited = Date.now() - began;
    expect(events[0]).toBe('start 0');
    expect(waited).toBeGreaterThanOrEqual(steady.maxDeferMs - 20);
    expect(waited).toBeLessThan(2_000); // it did start while tasks kept coming
    await background.idle();
  });

  it(
    'When more than maxWaiting are waiting, then the rest are left (to the job that sweeps their table) and idle() does not wait for ' +
      'them',
    async () => {
      const background = new BackgroundTasks(createLogger('error'));
      const { events, task } = recorder();
      for (let id = 0; id < 8; id += 1) background.runInLane(lane, `task ${id}`, task(id));
      await background.idle();
      expect(events).toEqual(['start 0', 'start 1', 'start 2', 'start 3', 'start 4']);
    },
  );
});

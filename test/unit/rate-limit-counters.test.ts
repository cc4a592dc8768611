import { memoryCounter } from '../../src/http/rateLimit/counters';

const MINUTE = 60_000;
const HOUR = 3_600_000;

describe('the in-memory rate limit counter', () => {
  it('When a key is hit in one window and then the next, then it counts per window; minute windows are the default', async () => {
    const counter = memoryCounter();
    expect([counter.hit('a', 10), counter.hit('a', 10), counter.hit('a', 11), counter.hit('b', 11)]).toEqual([1, 2, 1, 1]);
    await counter.close();
  });

  it('When many minute keys sweep the map, then an hour window still running keeps its count, and a past one goes', async () => {
    const counter = memoryCounter();
    const nowMs = Date.UTC(2026, 10, 21, 10, 30);
    const hour = Math.floor(nowMs / HOUR);
    counter.hit('login', hour, HOUR);
    counter.hit('login', hour, HOUR);
    counter.hit('old login', hour - 1, HOUR);
    const minute = Math.floor(nowMs / MINUTE);
    for (let i = 0; i < 10_001; i += 1) counter.hit(`token ${i}`, minute);
    expect(counter.hit('login', hour, HOUR)).toBe(3);
    expect(counter.hit('old login', hour - 1, HOUR)).toBe(1);
    await counter.close();
  });

  it('When a key is claimed, then it stays taken for its time and can be claimed again after; other keys are free', async () => {
    const counter = memoryCounter();
    const nowMs = Date.UTC(2026, 10, 21, 10, 30);
    expect(counter.claim('address', nowMs, 5 * MINUTE)).toBe(true);
    expect(counter.claim('address', nowMs + 5 * MINUTE - 1, 5 * MINUTE)).toBe(false);
    expect(counter.claim('other address', nowMs, 5 * MINUTE)).toBe(true);
    expect(counter.claim('address', nowMs + 5 * MINUTE, 5 * MINUTE)).toBe(true);
    expect(counter.claim('address', nowMs + 6 * MINUTE, 5 * MINUTE)).toBe(false);
    await counter.close();
  });
});

import { createTask, parse } from 'node-cron';
import { formatDateTime, fromDbDateTime, instantAtEpochMs, instantFromZonedDateTime, toDbDateTime } from '../time';

const MINUTE_MS = 60 * 1000;
const HOUR_MS = 60 * MINUTE_MS;
/** How far back a firing is looked for: a week, so a weekly expression is covered too. */
const LOOKBACK_MS = 8 * 24 * HOUR_MS;

/**
 * The most recent time at or before `now` that a cron expression fired in `timeZone`, or null when
 * it did not fire in the last eight days. The search walks the wall clock back minute by minute and
 * asks node-cron's own matcher about each wall-clock time, so a time the clock skipped (02:30 on the
 * day summer time starts) still counts: it passed when the clock jumped over it — read with the
 * offset before the change, as node-cron and instantFromZonedDateTime do: at 03:30 summer time.
 */
export function lastFiring(expression: string, timeZone: string, now: Date): Date | null {
  // Wall-clock times are handed to the matcher written as UTC, so it compares them as they read.
  const matcher = createTask(expression, () => undefined, { timezone: 'UTC' });
  try {
    const fields = parse(expression);
    // All seconds of a minute share the other fields: its last listed second is its last firing.
    const lastSecond = Math.max(...fields.second);
    // Minute, hour and month are plain numbers: checked first, the matcher (days: L, W, #) is asked rarely.
    const mayMatch = (wall: Date) =>
      fields.minute.includes(wall.getUTCMinutes()) &&
      fields.hour.includes(wall.getUTCHours()) &&
      fields.month.includes(wall.getUTCMonth() + 1);
    const wallNow = fromDbDateTime(formatDateTime(toDbDateTime(now), timeZone)).getTime();
    // An hour ahead on the wall clock: when clocks go back, a firing in the first pass of the
    // repeated hour reads later than now on the wall, yet lies before it.
    const start = Math.floor(wallNow / MINUTE_MS) * MINUTE_MS + HOUR_MS;
    for (let minute = start; minute >= wallNow - LOOKBACK_MS; minute -= MINUTE_MS) {
      const wall = instantAtEpochMs(minute + lastSecond * 1000);
      if (!mayMatch(wall) || !matcher.match(wall)) continue;
      const fired = instantFromZonedDateTime(toDbDateTime(wall), timeZone);
      if (fired && fired.getTime() <= now.getTime()) return fired;
    }
    return null;
  } finally {
    void matcher.destroy();
  }
}

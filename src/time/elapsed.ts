/**
 * Elapsed time: how long something took or has waited (run durations, rate-limit windows, request
 * spacing, in-memory caches, background lanes). It is read from a monotonic timer, never from the
 * account's clock: a test clock moved a year ahead must not make a job look a year slow, expire a
 * cache or open a rate-limit window, and a wall clock stepped by NTP must not either.
 */

/**
 * A reading of the monotonic timer in ms. It means nothing alone (it starts near 0 when the process
 * starts): only the difference between two readings is a duration.
 */
export function monotonicMs(): number {
  return performance.now();
}

export interface Stopwatch {
  /** Whole ms since the stopwatch started (rounded, as log lines and run summaries report them). */
  elapsedMs(): number;
}

/** Starts timing something now, for its duration in a log line or a run summary. */
export function stopwatch(): Stopwatch {
  const started = monotonicMs();
  return { elapsedMs: () => Math.round(monotonicMs() - started) };
}

/**
 * The real wall clock in ms since 1970, for one use only: comparing with a date another server wrote
 * from its own clock (an HTTP `Retry-After: <date>`). That server's clock is real whatever the
 * account's clock says, so the difference must be taken with the real time — not a business date,
 * which comes from the account's clock.
 */
export function wallClockMsForServerDates(): number {
  return Date.now();
}

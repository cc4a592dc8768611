import type { AppContext } from '../../context';
import { toDbDateTime } from '../../time';
import { billingRunsRepository, type BillingRunRow } from './runsRepository';
import { errorMessage } from '../../errors';

/** How often a running run says it is alive. */
const BEAT_MS = 60 * 1000;
/** A run not seen alive for this long, and not finished, crashed (or its process was killed). */
export const RUN_SILENT_MS = 5 * BEAT_MS;

/**
 * Runs one billing pass as a recorded run: started, beating while it goes, finished (with the charges
 * it made, for /metrics) only when it ran to its end — a pass that threw or was asked to stop (shutdown) stays unfinished, so it counts
 * as missed and is made up.
 */
export async function recordedRun<T>(
  ctx: AppContext,
  date: string,
  signal: AbortSignal | undefined,
  pass: () => Promise<T>,
  chargedBy: (result: T) => number,
): Promise<T> {
  const stamp = () => toDbDateTime(ctx.clock.now());
  const started = stamp();
  const seq = await billingRunsRepository.start(ctx.db, { billing_date: date, started_at: started, alive_at: started, finished_at: null });
  // A record that cannot be written costs at most one run made again (billing is idempotent): logged, not thrown.
  const record = (what: string, changes: Partial<BillingRunRow>) =>
    billingRunsRepository
      .record(ctx.db, seq, changes)
      .catch((error: unknown) => ctx.logger.warn(`billing run could not record ${what}`, { error: errorMessage(error) }));
  const beat = setInterval(() => void record('that it is alive', { alive_at: stamp() }), BEAT_MS);
  beat.unref();
  try {
    const result = await pass();
    if (!signal?.aborted) await record('its end', { alive_at: stamp(), finished_at: stamp(), charged: chargedBy(result) });
    return result;
  } finally {
    clearInterval(beat);
  }
}

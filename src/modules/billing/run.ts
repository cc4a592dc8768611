import type { AppContext } from '../../context';
import { newId } from '../../ids';
import { msAfter, toDbDateTime } from '../../time';
import { chargesRepository } from '../subscriptions/chargesRepository';
import { AccountCache, makeCharge, type ChargeOutcome } from './charging';
import { applyDueStateChanges } from '../subscriptions/lifecycle';
import { planDueCharges } from '../subscriptions/planning';
import { recordedRun } from './runs';
import { errorMessage } from '../../errors';
import { stopwatch } from '../../time/elapsed';

/** Charges one worker claims at a time: small, so instances share a run's work evenly. */
const CLAIM_BATCH = 4;
/** How long a claim holds: longer than a batch of provider calls takes, short enough to take over a crashed instance's rows soon. */
export const CLAIM_MS = 5 * 60 * 1000;
/** How long an idle worker waits for planning to write more rows. */
const PLANNING_POLL_MS = 20;

export interface BillingSummary {
  date: string;
  /** Charges that were due and handled by this run (made, skipped, not made, or failed). */
  due: number;
  charged: number;
  skipped: number;
  /** The mandate was not valid: a follow-up asks the customer to pay by link. */
  notCharged: number;
  /** The provider's answer was lost or the call failed: kept due, tried again (same payment) by the next run. */
  failed: number;
  cancelled: number;
  resumed: number;
}

/**
 * One billing pass as of `date` (a calendar date in APP_TIMEZONE):
 *
 * 1. state changes that are due (cancellations on their date, pauses that end);
 * 2. every charge due on or before `date` is written as a charge row (unique per subscription and
 *    charge number) — missed runs are made up here, each charge once;
 * 3. the due charge rows are claimed in small batches by `BILLING_CONCURRENCY` workers and charged
 *    through the payment pipeline. Several instances may run this at once: they share the rows.
 *
 * Each run is recorded (billing_runs), so one that was missed or crashed is made up by the bill job.
 */
export function runBilling(ctx: AppContext, date: string, signal?: AbortSignal): Promise<BillingSummary> {
  return recordedRun(
    ctx,
    date,
    signal,
    () => billingPass(ctx, date, signal),
    (summary) => summary.charged,
  );
}

async function billingPass(ctx: AppContext, date: string, signal?: AbortSignal): Promise<BillingSummary> {
  const timer = stopwatch();
  const { cancelled, resumed } = await applyDueStateChanges(ctx, date);
  // Charging starts while planning still writes rows: the first charges go out at once, and a run
  // takes about as long as the slower of the two instead of both one after the other.
  let planningDone = false;
  const planning = planDueCharges(ctx, date, signal).finally(() => {
    planningDone = true;
  });
  const counts: Record<ChargeOutcome, number> = { charged: 0, skipped: 0, not_charged: 0, unknown: 0, failed: 0 };
  const accounts = new AccountCache(ctx);
  const worker = async () => {
    while (!signal?.aborted) {
      // Read before claiming: rows planning writes after an empty claim are then still picked up.
      const plannedAll = planningDone;
      const now = ctx.clock.now();
      const claimed = await chargesRepository.claim(ctx.db, {
        date,
        now: toDbDateTime(now),
        until: toDbDateTime(msAfter(now, CLAIM_MS)),
        token: newId('clm'),
        limit: CLAIM_BATCH,
      });
      if (!claimed.length) {
        if (plannedAll) return;
        await new Promise((resolve) => setTimeout(resolve, PLANNING_POLL_MS));
        continue;
      }
      for (const charge of claimed) {
        try {
          const outcome = await makeCharge(ctx, accounts, charge);
          counts[outcome] += 1;
          ctx.metrics.chargeAttempts.inc({ outcome });
        } catch (error) {
          // One charge that cannot be made never stops the run; its claim expires and it is tried again.
          counts.failed += 1;
          ctx.metrics.chargeAttempts.inc({ outcome: 'failed' });
          ctx.logger.error('subscription charge could not be made', {
            accountId: charge.account_id,
            chargeId: charge.id,
            error: errorMessage(error),
          });
        }
      }
    }
  };
  const [planned] = await Promise.all([planning, ...Array.from({ length: ctx.config.BILLING_CONCURRENCY }, worker)]);
  const summary: BillingSummary = {
    date,
    due: Object.values(counts).reduce((sum, count) => sum + count, 0) + planned.skipped,
    charged: counts.charged,
    skipped: counts.skipped + planned.skipped,
    notCharged: counts.not_charged,
    failed: counts.failed + counts.unknown + planned.failed,
    cancelled,
    resumed,
  };
  ctx.logger.info('billing run finished', { ...summary, durationMs: timer.elapsedMs() });
  return summary;
}

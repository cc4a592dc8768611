import { runBilling } from '../modules/billing/run';
import { todayIn } from '../time';
import type { Job } from './types';

/**
 * The daily billing run. It takes no lease: every instance runs it at once and they share the due
 * charges by claiming them in small batches; the unique charge row makes each charge happen once.
 */
export const billJob: Job = {
  name: 'bill',
  schedule: '0 6 * * *',
  timing: (config) => ({ schedule: config.BILLING_CRON, timezone: config.APP_TIMEZONE }),
  sharedAcrossInstances: true,
  leaseSeconds: 3600,
  description: 'Charges every subscription with a charge due today or earlier, once per period (BILLING_CRON, in APP_TIMEZONE)',
  async run(ctx, signal) {
    const summary = await runBilling(ctx, todayIn(ctx), signal);
    return { processed: summary.charged + summary.skipped + summary.notCharged, failed: summary.failed };
  },
};

import { runFollowUps } from '../modules/follow-ups/progress';
import { todayIn } from '../time';
import type { Job } from './types';

export const followUpsJob: Job = {
  name: 'follow-ups',
  schedule: '20 * * * *', // hourly: retries and link e-mails are due by the day
  leaseSeconds: 900,
  description:
    'Retries failed charges and e-mails payment links for pending follow-ups; fails those whose link expired unpaid; cancels what ' +
    'settled ones left under way; catches links and orders paid twice',
  async run(ctx, signal) {
    const run = await runFollowUps(ctx, todayIn(ctx), signal);
    return { processed: run.retried + run.linked + run.failed, failed: run.errors };
  },
};

import { sendPreNotifications } from '../modules/billing/preNotification';
import { todayIn } from '../time';
import type { Job } from './types';

export const preNotifyDirectDebitsJob: Job = {
  name: 'pre-notify-direct-debits',
  schedule: '0 * * * *', // hourly: a new subscription or a changed date is noticed the same day
  leaseSeconds: 600,
  description: 'E-mails customers the date and amount of each direct debit, pre_notification_days before it (accounts that set it)',
  async run(ctx) {
    const queued = await sendPreNotifications(ctx, todayIn(ctx));
    return { processed: queued, failed: 0 };
  },
};

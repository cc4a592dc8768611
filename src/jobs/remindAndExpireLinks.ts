import { expireLinks } from '../modules/links/expiry';
import { sendDueReminders } from '../modules/links/reminders';
import type { Job } from './types';

export const remindAndExpireLinksJob: Job = {
  name: 'remind-and-expire-links',
  schedule: '*/5 * * * *', // a reminder is due at a minute's precision of no one's; five is plenty
  leaseSeconds: 120,
  description: 'E-mails the reminder of open payment links at their reminder_at, and expires links past their expires_at',
  async run(ctx, signal) {
    const expired = await expireLinks(ctx);
    const reminders = await sendDueReminders(ctx, signal);
    return { processed: expired + reminders.sent, failed: reminders.failed };
  },
};

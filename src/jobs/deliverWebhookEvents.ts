import { deliverDueEvents } from '../events/delivery';
import type { Job } from './types';

export const deliverWebhookEventsJob: Job = {
  name: 'deliver-webhook-events',
  schedule: '*/30 * * * * *', // every 30 s: the first retry waits 30 s
  leaseSeconds: 120,
  description: 'Send due payment events to client webhook URLs, retrying with backoff for 26 hours',
  run: (ctx, signal) => deliverDueEvents(ctx, signal),
};

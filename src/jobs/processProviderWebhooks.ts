import { processDueWebhookCalls } from '../modules/payments/webhookCalls';
import type { Job } from './types';

export const processProviderWebhooksJob: Job = {
  name: 'process-provider-webhooks',
  schedule: '* * * * *',
  leaseSeconds: 120,
  description: 'Process provider webhook calls that are due again (lost to a crash, or failed), retrying with backoff for 26 hours',
  run: (ctx, signal) => processDueWebhookCalls(ctx, signal),
};

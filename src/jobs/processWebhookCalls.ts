import { processStaleWebhookCalls } from '../webhooks/inbound/calls';
import type { Job } from './types';

export const processWebhookCallsJob: Job = {
  name: 'process-provider-webhooks',
  schedule: '* * * * *',
  leaseSeconds: 120,
  description: 'Process provider webhook calls that were received but not processed (a crash, a provider error)',
  run: (ctx, signal) => processStaleWebhookCalls(ctx, signal),
};

import { runDueBookkeeping } from '../modules/invoices/bookkeepingOutbox';
import type { Job } from './types';

export const sendToBookkeepingJob: Job = {
  name: 'send-to-bookkeeping',
  schedule: '* * * * *',
  leaseSeconds: 600,
  description: 'Create invoices and credit invoices in the bookkeeping system (Moneybird), retrying with backoff for about two days',
  run: (ctx, signal) => runDueBookkeeping(ctx, signal),
};

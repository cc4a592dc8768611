import { issueDueOwedInvoices } from '../modules/invoices/owed';
import type { Job } from './types';

export const issueOwedInvoicesJob: Job = {
  name: 'issue-owed-invoices',
  schedule: '* * * * *',
  leaseSeconds: 600,
  description: 'Number and issue the invoices paid payments are owed that were not issued right after payment, with backoff',
  run: (ctx, signal) => issueDueOwedInvoices(ctx, signal),
};

import { deliverDueMails } from '../mail/delivery';
import { documentAttachment } from '../modules/invoices/mails';
import { smtpTransportFor } from '../mail/transport';
import type { Job } from './types';

export const deliverMailsJob: Job = {
  name: 'deliver-mails',
  schedule: '*/30 * * * * *', // every 30 s: a reminder need not wait long after its commit
  leaseSeconds: 120,
  description: 'Send queued e-mails through SMTP_URL (retried for 26 hours), or keep them in outgoing_mails without it',
  // Invoices and credit notes go out with their PDF.
  run: (ctx, signal) => deliverDueMails(ctx, signal, smtpTransportFor(ctx.config), documentAttachment),
};

import { billJob } from './bill';
import { deliverMailsJob } from './deliverMails';
import { deliverWebhookEventsJob } from './deliverWebhookEvents';
import { followUpsJob } from './followUps';
import { preNotifyDirectDebitsJob } from './preNotifyDirectDebits';
import { syncStoresJob } from './syncStores';
import { trackShipmentsJob } from './trackShipments';
import { writeBackToStoresJob } from './writeBackToStores';
import { finishProviderCreationsJob } from './finishProviderCreations';
import { processProviderWebhooksJob } from './processProviderWebhooks';
import { purgeIdempotencyKeysJob } from './purgeIdempotencyKeys';
import { purgePortalSessionsJob } from './purgePortalSessions';
import { reconcilePaymentsJob } from './reconcilePayments';
import { refreshMandatesJob } from './refreshMandates';
import { remindAndExpireLinksJob } from './remindAndExpireLinks';
import { sendToBookkeepingJob } from './sendToBookkeeping';
import { issueOwedInvoicesJob } from './issueOwedInvoices';
import { auditLedgerJob } from './auditLedger';
import type { Job } from './types';

/** Every background job: scheduled by the server, runnable once with `cli jobs run <name>`. */
export const allJobs: Job[] = [
  deliverWebhookEventsJob,
  processProviderWebhooksJob,
  finishProviderCreationsJob,
  reconcilePaymentsJob,
  purgeIdempotencyKeysJob,
  purgePortalSessionsJob,
  remindAndExpireLinksJob,
  deliverMailsJob,
  billJob,
  followUpsJob,
  preNotifyDirectDebitsJob,
  refreshMandatesJob,
  syncStoresJob,
  writeBackToStoresJob,
  trackShipmentsJob,
  sendToBookkeepingJob,
  issueOwedInvoicesJob,
  auditLedgerJob,
];

export function findJob(name: string, jobs: Job[] = allJobs): Job | undefined {
  return jobs.find((job) => job.name === name);
}

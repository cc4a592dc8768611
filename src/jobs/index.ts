import { billJob } from './bill';
import { deliverMailsJob } from './deliverMails';
import { deliverOutboundEventsJob } from './deliverOutboundEvents';
import { followUpsJob } from './followUps';
import { preNotifyJob } from './preNotify';
import { syncStoresJob } from './syncStores';
import { trackShipmentsJob } from './trackShipments';
import { writeBackToStoresJob } from './writeBackToStores';
import { finishProviderCreationsJob } from './finishProviderCreations';
import { processWebhookCallsJob } from './processWebhookCalls';
import { purgeIdempotencyKeysJob } from './purgeIdempotencyKeys';
import { reconcilePaymentsJob } from './reconcilePayments';
import { refreshMandatesJob } from './refreshMandates';
import { remindAndExpireLinksJob } from './remindAndExpireLinks';
import type { Job } from './types';

/** Every background job: scheduled by the server, runnable once with `cli jobs run <name>`. */
export const allJobs: Job[] = [
  deliverOutboundEventsJob,
  processWebhookCallsJob,
  finishProviderCreationsJob,
  reconcilePaymentsJob,
  purgeIdempotencyKeysJob,
  remindAndExpireLinksJob,
  deliverMailsJob,
  billJob,
  followUpsJob,
  preNotifyJob,
  refreshMandatesJob,
  syncStoresJob,
  writeBackToStoresJob,
  trackShipmentsJob,
];

export function findJob(name: string, jobs: Job[] = allJobs): Job | undefined {
  return jobs.find((job) => job.name === name);
}

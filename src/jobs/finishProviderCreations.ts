import { refundsRepository } from '../modules/refunds/repository';
import { resumeRefund } from '../modules/refunds/service';
import type { AppContext } from '../context';
import type { Account } from '../modules/accounts/account';
import { accountsRepository } from '../modules/accounts/repository';
import { resumeCustomer } from '../modules/customers/creation';
import { customersRepository } from '../modules/customers/repository';
import { resumePayment } from '../modules/payments/pipeline';
import { paymentsRepository } from '../modules/payments/repository';
import { toDbDateTime } from '../time';
import type { Job, JobResult } from './types';
import { errorMessage } from '../errors';

const BATCH_SIZE = 50;

/**
 * Finishes customers and payments whose creation at the provider stopped halfway, once their next
 * attempt is due: a new row two minutes after it was written (by then no live request works on it:
 * requests give up after the provider timeout, and a dead request's Idempotency-Key is released after
 * IDEMPOTENCY_LOCK_SECONDS), a row that failed again after its backoff (see providers/resumption.ts).
 * Each is resumed with its own idempotency key (or looked up at the provider once the key's window
 * has passed), so none is ever made twice.
 */
export async function finishStalledCreations(ctx: AppContext, signal: AbortSignal, batchSize = BATCH_SIZE): Promise<JobResult> {
  const now = toDbDateTime(ctx.clock.now());
  const result: JobResult = { processed: 0, failed: 0 };
  const attempt = async (what: Record<string, string>, resume: () => Promise<unknown>) => {
    try {
      await resume();
      result.processed += 1;
    } catch (error) {
      result.failed += 1;
      ctx.logger.warn('stalled creation not finished; tried again on a later run', { ...what, error: errorMessage(error) });
    }
  };

  for (const row of await customersRepository.stalledCreations(ctx.db, now, batchSize)) {
    if (signal.aborted) return result;
    await attempt({ accountId: row.account_id, customerId: row.id }, () => resumeCustomer(ctx, { id: row.account_id }, row));
  }

  const accounts = new Map<string, Account | undefined>();
  for (const row of await paymentsRepository.stalledCreations(ctx.db, now, batchSize)) {
    if (signal.aborted) return result;
    if (!accounts.has(row.account_id)) accounts.set(row.account_id, await accountsRepository.findById(ctx.db, row.account_id));
    const account = accounts.get(row.account_id);
    if (!account) continue;
    await attempt({ accountId: row.account_id, paymentId: row.id }, () => resumePayment(ctx, account, row, { answeredInRequest: false }));
  }

  for (const row of await refundsRepository.stalledCreations(ctx.db, now, batchSize)) {
    if (signal.aborted) return result;
    await attempt({ accountId: row.account_id, refundId: row.id }, () => resumeRefund(ctx, { id: row.account_id }, row));
  }
  return result;
}

export const finishProviderCreationsJob: Job = {
  name: 'finish-provider-creations',
  schedule: '* * * * *',
  leaseSeconds: 120,
  description:
    'Finishes customers, payments and refunds whose creation at the provider lost its answer (a timeout, a crash), never making one twice',
  run: (ctx, signal) => finishStalledCreations(ctx, signal),
};

import type { Knex } from 'knex';
import { idempotencyKeysRepository } from '../http/idempotencyRepository';
import { toDbDateTime } from '../time';
import type { Job } from './types';

const BATCH_SIZE = 500;

/**
 * Deletes Idempotency-Key rows whose 24 hours are over, a bounded batch at a time so no statement
 * locks the table for long. A key that was taken again meanwhile has a new expiry and stays.
 */
export async function purgeExpiredIdempotencyKeys(db: Knex, now: Date, signal: AbortSignal, batchSize = BATCH_SIZE): Promise<number> {
  const cutoff = toDbDateTime(now);
  let purged = 0;
  while (!signal.aborted) {
    const batch = await idempotencyKeysRepository.expiredBatch(db, cutoff, batchSize);
    if (batch.length === 0) break;
    purged += await idempotencyKeysRepository.deleteStillExpired(db, batch, cutoff);
    if (batch.length < batchSize) break;
  }
  return purged;
}

export const purgeIdempotencyKeysJob: Job = {
  name: 'purge-idempotency-keys',
  schedule: '17 * * * *', // hourly; an expired key is already ignored by requests, so late is harmless
  leaseSeconds: 600,
  description: 'Deletes Idempotency-Key records older than 24 hours',
  async run(ctx, signal) {
    return { processed: await purgeExpiredIdempotencyKeys(ctx.db, ctx.clock.now(), signal), failed: 0 };
  },
};

import type { Knex } from 'knex';
import { portalSessionsRepository } from '../modules/portal/sessionsRepository';
import { portalTokensRepository } from '../modules/portal/tokensRepository';
import { msBefore, toDbDateTime } from '../time';
import type { Job } from './types';

const BATCH_SIZE = 500;
/** Kept a day past their expiry, so a customer's "my link did not work" can still be looked into. */
const KEPT_AFTER_EXPIRY_MS = 24 * 60 * 60 * 1000;

type ExpiringRows = {
  expiredBatch(db: Knex, cutoff: string, limit: number): Promise<string[]>;
  deleteMany(db: Knex, ids: string[]): Promise<number>;
};

async function purge(db: Knex, rows: ExpiringRows, cutoff: string, signal: AbortSignal, batchSize: number): Promise<number> {
  let purged = 0;
  while (!signal.aborted) {
    const batch = await rows.expiredBatch(db, cutoff, batchSize);
    if (batch.length === 0) break;
    purged += await rows.deleteMany(db, batch);
    if (batch.length < batchSize) break;
  }
  return purged;
}

/**
 * Deletes portal links and sessions a day after they expired, in bounded batches. An expired link
 * or session opens nothing already (the claim and the session lookup check the time); this only
 * keeps the tables from growing with every log-in.
 */
export async function purgeExpiredPortalSessions(db: Knex, now: Date, signal: AbortSignal, batchSize = BATCH_SIZE): Promise<number> {
  const cutoff = toDbDateTime(msBefore(now, KEPT_AFTER_EXPIRY_MS));
  const tokens = await purge(db, portalTokensRepository, cutoff, signal, batchSize);
  return tokens + (await purge(db, portalSessionsRepository, cutoff, signal, batchSize));
}

export const purgePortalSessionsJob: Job = {
  name: 'purge-portal-sessions',
  schedule: '47 * * * *', // hourly; expired rows are already useless, so late is harmless
  leaseSeconds: 600,
  description: 'Deletes portal log-in links and sessions a day after they expired',
  async run(ctx, signal) {
    return { processed: await purgeExpiredPortalSessions(ctx.db, ctx.clock.now(), signal), failed: 0 };
  },
};

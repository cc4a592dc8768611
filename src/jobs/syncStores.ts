import { syncAllStores } from '../modules/store/syncService';
import type { Job } from './types';

export const syncStoresJob: Job = {
  name: 'sync-stores',
  schedule: '*/15 * * * *',
  leaseSeconds: 900,
  description: 'Incremental sync of every connected store (what changed since the last sync), so a missed webhook heals by itself',
  async run(ctx, signal) {
    const result = await syncAllStores(ctx, signal);
    return { processed: result.synced, failed: result.failed };
  },
};

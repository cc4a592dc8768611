import { runDueShopTasks } from '../modules/store/storeTasks';
import type { Job } from './types';

export const writeBackToStoresJob: Job = {
  name: 'write-back-to-stores',
  schedule: '* * * * *',
  leaseSeconds: 600,
  description: 'Tell stores what happened to their orders (paid, not paid, renewal orders), retrying with backoff for about two days',
  run: (ctx, signal) => runDueShopTasks(ctx, signal),
};

import { z } from 'zod';

export const startSyncBody = z
  .object({ full: z.boolean().optional().describe('true: read every record, not only those changed since the last sync') })
  .strict();

export const syncRunResponse = z.object({
  id: z.string(),
  kind: z.enum(['products', 'orders']),
  full: z.boolean(),
  status: z.enum(['running', 'succeeded', 'failed']),
  progress: z.object({
    pages_done: z.number().int(),
    pages_total: z.number().int().nullable(),
    created: z.number().int(),
    updated: z.number().int(),
    unchanged: z.number().int(),
    failed: z.number().int(),
  }),
  errors: z.array(z.object({ record: z.string(), error: z.string() })).describe('the first 100 records that failed, and why'),
  started_at: z.string().describe('Y-m-d H:i:s in APP_TIMEZONE'),
  finished_at: z.string().nullable(),
});
export type SyncRunResponse = z.input<typeof syncRunResponse>;

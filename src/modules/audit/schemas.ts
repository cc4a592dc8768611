import { z } from 'zod';
import { calendarDate } from '../../validation/fields';
import { INVARIANTS } from './service';

/** `POST /api/v2/audit` (extension): a new run of the ledger audit, of the whole history or from `since` on. */
export const requestAuditBody = z.object({
  since: calendarDate().optional().describe('only what was made from this day (Y-m-d, APP_TIMEZONE) on; none: the whole history'),
});

const finding = z.object({
  invariant: z.enum(INVARIANTS),
  message: z.string(),
  rows: z.array(z.string()).describe('the rows involved: our ids and the provider’s'),
});

export const auditParams = z.object({ id: z.string() });

export const auditResponse = z.object({
  id: z.string(),
  status: z.enum(['running', 'done', 'failed']).describe('`failed`: the audit could not run (`error` says why), not a violation'),
  requested_via: z.enum(['job', 'api', 'cli']),
  since: z.string().nullable(),
  violations: z.number().int().nullable().describe('broken invariants; null until done'),
  todos: z.number().int().nullable(),
  started_at: z.string(),
  finished_at: z.string().nullable(),
  error: z.string().nullable(),
  report: z
    .object({ violations: z.array(finding), todos: z.array(finding), notes: z.array(finding) })
    .nullable()
    .describe('null until done'),
});
export type AuditResponse = z.input<typeof auditResponse>;

import { z } from 'zod';
import { pagedEnvelopeSchema, pageQuerySchema } from '../../validation/pagination';
import { IMPORT_STATUSES, ROW_OUTCOMES } from './repository';
import { CSV_ENCODINGS } from './csvFile';
import { vatRateOf } from './importVat';
import { IMPORT_SOURCES } from './sources';
import { STORE_SUBSCRIPTIONS_IMPORT } from '../../integrations';
import { PROVIDER_SUBSCRIPTIONS_IMPORT } from '../../providers';

const PROVIDER = PROVIDER_SUBSCRIPTIONS_IMPORT;
const STORE = STORE_SUBSCRIPTIONS_IMPORT;

/** `POST /api/v2/imports`'s summary in the API's reference (the route names no provider). */
export const createImportSummary =
  `Import running subscriptions (a CSV file of SEPA mandates, or the subscriptions ${PROVIDER.billerName} bills); ` +
  'dry_run reports the plan and creates nothing';

/** A CSV import's file travels as text in the JSON body (at most the 1 MB body limit; larger files: the CLI). */
export const createImportBody = z.object({
  source: z
    .enum(IMPORT_SOURCES)
    .describe(
      `\`csv\` (a file), \`${PROVIDER.sourceName}\` (${PROVIDER.description}) or ` + `\`${STORE.sourceName}\` (${STORE.description})`,
    ),
  dry_run: z.boolean().optional().describe('true: nothing is created or sent to the provider; the report shows the plan'),
  csv: z.string().min(1).nullable().optional().describe('the file, for source csv (columns: docs/moving-over.md)'),
  csv_base64: z
    .string()
    .min(1)
    .regex(/^[A-Za-z0-9+/]+={0,2}$/, 'The :attribute field must be base64.')
    .nullable()
    .optional()
    .describe("the file's bytes in base64, for source csv (instead of csv): checked to be UTF-8, or converted from `encoding`"),
  encoding: z
    .enum(CSV_ENCODINGS)
    .optional()
    .describe('the encoding of csv_base64 (default utf-8); windows-1252 converts a file saved by Excel on Windows'),
  vat_rate: z
    .string()
    .max(8)
    .refine((rate) => vatRateOf(rate) !== null, 'The :attribute field must be a VAT percentage such as 21 or 9.')
    .nullable()
    .optional()
    .describe(
      `the VAT percentage the imported amounts include (${PROVIDER.sourceName}; csv: rows without a vat_rate column); ` +
        'absent: their invoices are not issued',
    ),
});
export type CreateImportInput = z.output<typeof createImportBody>;

export const importParams = z.object({ id: z.string() });
export const importQuery = pageQuerySchema;

export const importRowResponse = z.object({
  source_id: z.string().describe(`the source's own id (CSV: the mandate reference; ${PROVIDER.billerName}: its subscription id)`),
  line: z.number().int().nullable().describe('the line of the file (CSV); null for other sources'),
  outcome: z.enum(ROW_OUTCOMES).describe('a dry run answers would_create / would_skip; exists: imported by an earlier run'),
  field: z.string().nullable().describe('for failed: the field that is wrong'),
  reason: z.string().nullable(),
  customer_id: z.string().nullable(),
  subscription_id: z.string().nullable(),
});

/** The report of one run: its counts and (paged) what became of each row. */
export const importResponse = z.object({
  id: z.string(),
  source: z.enum(IMPORT_SOURCES),
  dry_run: z.boolean(),
  status: z.enum(IMPORT_STATUSES),
  counts: z.object({
    total: z.number().int(),
    created: z.number().int().describe('a dry run: would be created'),
    skipped: z.number().int().describe('skipped, would be skipped, or imported before'),
    failed: z.number().int(),
  }),
  error: z.string().nullable().describe('why a failed run stopped'),
  started_at: z.string(),
  finished_at: z.string().nullable(),
  rows: pagedEnvelopeSchema(importRowResponse),
});
export type ImportResponse = z.infer<typeof importResponse>;
export type ImportRowResponse = z.infer<typeof importRowResponse>;

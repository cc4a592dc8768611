import { z } from 'zod';

const money = z.string().describe('decimal, e.g. "12.50"');

const invoiceLineResponse = z.object({
  quantity: z.number().int(),
  description: z.string(),
  amount: money.describe('per unit, excluding VAT'),
  vat: z.string().nullable().describe('percentage'),
  ledger_account_id: z.string().nullable(),
  total_excluding_vat: money,
  total_vat: money.describe('rounded half-up per line'),
  total_including_vat: money,
  period: z
    .object({ start: z.string(), end: z.string() })
    .nullable()
    .describe('the period the line supplies (Y-m-d, both included); null when the payment date is the date of supply'),
});

export const invoiceResponse = z.object({
  id: z.string(),
  subscription_id: z.string().nullable(),
  payment_id: z.string(),
  currency: z.string(),
  lines: z.array(invoiceLineResponse),
  total_excluding_vat: money,
  total_vat: money,
  total_including_vat: money,
  workflow_id: z.string().nullable(),
  docstyle_id: z.string().nullable(),
  bookkeeping_status: z.enum(['none', 'pending', 'sent', 'failed']),
  bookkeeping_reference: z.string().optional().describe("the invoice's id in the bookkeeping system, once sent"),
  bookkeeping_error: z.string().optional().describe('why the invoice did not reach the bookkeeping system (yet)'),
  created_at: z.string().describe('Y-m-d H:i:s in APP_TIMEZONE'),
});

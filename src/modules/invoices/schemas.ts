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

const party = z
  .object({
    name: z.string(),
    organization: z.string().nullable(),
    address: z.string().nullable(),
    postal_code: z.string().nullable(),
    city: z.string().nullable(),
    country: z.string().nullable(),
    vat_number: z.string().nullable(),
    coc_number: z.string().nullable().describe("the seller's Chamber of Commerce (KvK) number; null when not set, and for a buyer"),
  })
  .nullable();

export const creditNoteResponse = z.object({
  id: z.string(),
  number: z.string(),
  reason: z.enum(['refund', 'chargeback']),
  total_excluding_vat: money,
  total_vat: money,
  total_including_vat: money,
  created_at: z.string(),
  pdf_url: z.string(),
});

export const issuedInvoiceResponse = z.object({
  resource: z.literal('invoice'),
  id: z.string(),
  number: z.string().nullable().describe('null while not issued'),
  status: z.enum(['issued', 'not_issued']),
  not_issued_reason: z.string().nullable(),
  subscription_id: z.string().nullable().describe("the subscription whose charge it invoices; null for a link's or an order's"),
  link_id: z.string().nullable().describe('the payment link it invoices, when the account invoices links'),
  order_id: z.string().nullable().describe('the store order it invoices, when the account invoices orders'),
  customer_id: z.string().nullable(),
  payment_id: z.string(),
  payment_reference: z.string().nullable(),
  issued_on: z.string().nullable().describe('Y-m-d'),
  locale: z.string().nullable(),
  currency: z.string(),
  seller: party,
  buyer: party,
  lines: z.array(
    z.object({
      quantity: z.number().int(),
      description: z.string(),
      amount: money,
      vat: z.string().nullable(),
      total_excluding_vat: money,
      total_vat: money,
      total_including_vat: money,
      period: z
        .object({ start: z.string().describe('Y-m-d'), end: z.string().describe('Y-m-d, included') })
        .nullable()
        .describe("the period supplied (a subscription charge's); null when the invoice's date is the date of supply"),
    }),
  ),
  vat_totals: z.array(z.object({ vat: z.string().nullable(), total_excluding_vat: money, total_vat: money, total_including_vat: money })),
  total_excluding_vat: money,
  total_vat: money,
  total_including_vat: money,
  reverse_charge: z.boolean(),
  oss_country: z.string().nullable(),
  credit_notes: z.array(creditNoteResponse),
  pdf_url: z.string().nullable(),
  created_at: z.string(),
});

export const creditNoteParams = z.object({ id: z.string(), creditNoteId: z.string() });

/** A PDF answer, for OpenAPI: the route sends the bytes itself. */
export const pdfResponse = z.unknown().describe('application/pdf');

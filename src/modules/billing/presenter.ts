import type { z } from 'zod';
import { formatCents } from '../../money';
import { formatDateTime } from '../../time';
import type { InvoiceLine } from './invoices';
import type { InvoiceRow } from './invoicesRepository';
import type { invoiceResponse } from './schemas';

export function presentInvoice(row: InvoiceRow, timeZone: string): z.input<typeof invoiceResponse> {
  const lines = JSON.parse(row.lines) as InvoiceLine[];
  return {
    id: row.id,
    subscription_id: row.subscription_id,
    payment_id: row.payment_id,
    currency: row.currency,
    lines: lines.map((line) => ({
      ...line,
      amount: formatCents(line.amount),
      total_excluding_vat: formatCents(line.total_excluding_vat),
      total_vat: formatCents(line.total_vat),
      total_including_vat: formatCents(line.total_including_vat),
      period: line.period ?? null,
    })),
    total_excluding_vat: formatCents(row.total_excluding_vat),
    total_vat: formatCents(row.total_vat),
    total_including_vat: formatCents(row.total_including_vat),
    workflow_id: row.workflow_id,
    docstyle_id: row.docstyle_id,
    bookkeeping_status: row.bookkeeping_status,
    ...(row.bookkeeping_reference ? { bookkeeping_reference: row.bookkeeping_reference } : {}),
    ...(row.bookkeeping_error ? { bookkeeping_error: row.bookkeeping_error } : {}),
    created_at: formatDateTime(row.created_at, timeZone),
  };
}

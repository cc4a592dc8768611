import type { Knex } from 'knex';
import { queueCreditInvoice } from '../../bookkeeping/outbox';
import type { AppContext } from '../../context';
import { issueCreditNote, type CreditNoteRequest } from './creditNotes';
import { invoiceDocumentsRepository } from './invoiceDocumentsRepository';
import { issueOwedWithin } from './owedInvoices';
import type { InvoiceLine } from './invoices';

/** A credit note's line as the bookkeeping system credits it: the amounts given back, positive. */
const givenBack = (line: InvoiceLine): InvoiceLine => ({
  ...line,
  quantity: Math.abs(line.quantity),
  amount: Math.abs(line.amount),
  total_excluding_vat: Math.abs(line.total_excluding_vat),
  total_vat: Math.abs(line.total_vat),
  total_including_vat: Math.abs(line.total_including_vat),
});

/**
 * Money given back on a paid payment (a refund, a chargeback), in the transaction that records it:
 * the payment's invoice is corrected by a credit note here and, when that invoice goes to the
 * account's bookkeeping system, by a credit invoice there — each once per `sourceKey`. All of it
 * given back credits the invoice's own lines (with their ledger accounts); part of it, the note's.
 */
export async function creditMoneyBack(ctx: AppContext, trx: Knex.Transaction, request: CreditNoteRequest): Promise<void> {
  // An invoice still owed (numbering failed after payment) is issued first: the note corrects it.
  await issueOwedWithin(ctx, trx, request.accountId, request.paymentId);
  const note = await issueCreditNote(ctx, trx, request);
  if (!note) return;
  const invoice = await invoiceDocumentsRepository.findInvoice(trx, request.accountId, note.invoice_id);
  if (!invoice || invoice.bookkeeping_status === 'none') return;
  const whole = Math.abs(Number(note.total_including_vat)) >= Number(invoice.total_including_vat);
  await queueCreditInvoice(trx, ctx.clock, {
    accountId: request.accountId,
    invoiceId: invoice.id,
    reference: note.id,
    reason: request.reason,
    // Part of it: the note's VAT-inclusive lines, which add up to exactly what went back.
    ...(whole ? {} : { lines: (JSON.parse(note.lines) as InvoiceLine[]).map(givenBack), pricesInclTax: true }),
  });
}

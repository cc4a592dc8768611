import type { Knex } from 'knex';
import { queueCreditInvoice } from './bookkeepingOutbox';
import type { AppContext } from '../../context';
import { issueCreditNote, type CreditNoteRequest } from './creditNotes';
import { invoicesRepository } from './repository';
import type { InvoiceLine } from './issuing';

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
 * The credit note (and bookkeeping credit) of money given back, when the payment's invoice is issued;
 * nothing when it is not (yet): an owed invoice issued later is credited then (owed.ts).
 */
export async function creditInvoice(ctx: AppContext, trx: Knex.Transaction, request: CreditNoteRequest): Promise<void> {
  const note = await issueCreditNote(ctx, trx, request);
  if (!note) return;
  const invoice = await invoicesRepository.find(trx, request.accountId, note.invoice_id);
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

import type { Response } from 'express';
import type { AppContext } from '../../context';
import type { Account } from '../accounts/account';
import { NotFoundError } from '../../errors';
import type { PageRequest } from '../../paging';
import { presentIssuedInvoice } from './invoiceApiPresenter';
import { invoiceDocumentsRepository, type InvoiceFilters } from './invoiceDocumentsRepository';
import { creditNotePdfOf, invoicePdfOf } from './invoicePdf';

/** A page of the account's invoices with their credit notes, presented. */
export async function listInvoices(ctx: AppContext, account: Account, filters: InvoiceFilters, request: PageRequest) {
  const page = await invoiceDocumentsRepository.pageOfInvoices(ctx.db, account.id, filters, request);
  const notes = await invoiceDocumentsRepository.creditNotesOf(
    ctx.db,
    account.id,
    page.items.map((row) => row.id),
  );
  const items = page.items.map((row) =>
    presentIssuedInvoice(
      row,
      notes.filter((note) => note.invoice_id === row.id),
      ctx.config.publicUrl,
      ctx.config.APP_TIMEZONE,
    ),
  );
  return { items, total: page.total };
}

/** One invoice of the account with its credit notes, presented; 404 for another account's. */
export async function getInvoice(ctx: AppContext, account: Account, id: string) {
  const row = await invoiceDocumentsRepository.findInvoice(ctx.db, account.id, id);
  if (!row) throw new NotFoundError('Invoice');
  const notes = await invoiceDocumentsRepository.creditNotesOf(ctx.db, account.id, [row.id]);
  return presentIssuedInvoice(row, notes, ctx.config.publicUrl, ctx.config.APP_TIMEZONE);
}

/** Answers with a PDF (shown in the browser, saved under its number). */
export function sendPdf(res: Response, name: string, pdf: Buffer): void {
  res
    .status(200)
    .type('application/pdf')
    .setHeader('Content-Disposition', `inline; filename="${name.replace(/[^\w.-]/g, '_')}.pdf"`);
  res.send(pdf);
}

export async function sendInvoicePdf(ctx: AppContext, account: Account, id: string, res: Response): Promise<void> {
  const { number, pdf } = await invoicePdfOf(ctx.db, account.id, id);
  sendPdf(res, number, pdf);
}

export async function sendCreditNotePdf(ctx: AppContext, account: Account, invoiceId: string, id: string, res: Response): Promise<void> {
  const { number, pdf } = await creditNotePdfOf(ctx.db, account.id, invoiceId, id);
  sendPdf(res, number, pdf);
}

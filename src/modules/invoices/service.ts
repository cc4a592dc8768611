import type { AppContext } from '../../context';
import type { Account } from '../accounts/account';
import { NotFoundError } from '../../errors';
import type { Page, PageRequest } from '../../paging';
import { subscriptionsRepository } from '../subscriptions/repository';
import { creditNotePdfOf, invoicePdfOf } from './pdf';
import { presentIssuedInvoice } from './presenter';
import { invoicesRepository, type InvoiceFilters, type InvoiceRow } from './repository';

/** A page of the account's invoices with their credit notes, presented. */
export async function listInvoices(ctx: AppContext, account: Account, filters: InvoiceFilters, request: PageRequest) {
  const page = await invoicesRepository.page(ctx.db, account.id, filters, request);
  const notes = await invoicesRepository.creditNotesOf(
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
  const row = await invoicesRepository.find(ctx.db, account.id, id);
  if (!row) throw new NotFoundError('Invoice');
  const notes = await invoicesRepository.creditNotesOf(ctx.db, account.id, [row.id]);
  return presentIssuedInvoice(row, notes, ctx.config.publicUrl, ctx.config.APP_TIMEZONE);
}

/** A page of the invoice records of one of the account's subscriptions, oldest first. */
export async function listSubscriptionInvoices(
  ctx: AppContext,
  account: Account,
  subscriptionId: string,
  request: PageRequest,
): Promise<Page<InvoiceRow>> {
  if (!(await subscriptionsRepository.find(ctx.db, account.id, subscriptionId))) throw new NotFoundError('Subscription');
  return invoicesRepository.pageOfSubscription(ctx.db, account.id, subscriptionId, request);
}

/** The account's invoice as a PDF with the number it is saved under; the route sends it. */
export function invoicePdf(ctx: AppContext, account: Account, id: string): Promise<{ number: string; pdf: Buffer }> {
  return invoicePdfOf(ctx.db, account.id, id);
}

/** A credit note of the account's invoice as a PDF with its number. */
export function creditNotePdf(ctx: AppContext, account: Account, invoiceId: string, id: string): Promise<{ number: string; pdf: Buffer }> {
  return creditNotePdfOf(ctx.db, account.id, invoiceId, id);
}

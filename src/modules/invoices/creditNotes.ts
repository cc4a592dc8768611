import type { Knex } from 'knex';
import type { AppContext } from '../../context';
import { newId } from '../../ids';
import { toDbDateTime } from '../../time';
import { inclusiveLine } from './issuing';
import type { InvoiceRow } from './repository';
import { buildDocument, type InvoiceDocument, type InvoiceLine } from './document';
import { invoiceSettingsRepository } from './settingsRepository';
import { invoicesRepository, type CreditNoteRow } from './repository';
import { mailDocument } from './mails';

export interface CreditNoteRequest {
  accountId: string;
  paymentId: string;
  /** Cents given back (positive); more than the invoice's total credits the total. */
  amount: number;
  reason: 'refund' | 'chargeback';
  /** What the credit note is for, once: `chargeback-<payment>`, `refund-<refund id>`. */
  sourceKey: string;
}

const negate = (line: InvoiceLine): InvoiceLine => ({
  ...line,
  quantity: -line.quantity,
  total_excluding_vat: -line.total_excluding_vat,
  total_vat: -line.total_vat,
  total_including_vat: -line.total_including_vat,
});

/**
 * `amount` shared over `weights` in proportion, in whole cents that add up to it exactly: each share rounded down,
 * and the cents left over go one each to the shares that lost most to the rounding (the largest remainders).
 */
export function shareInProportion(amount: number, weights: readonly number[]): number[] {
  const whole = weights.reduce((sum, weight) => sum + weight, 0);
  if (whole <= 0) return weights.map((_, index) => (index === weights.length - 1 ? amount : 0));
  const exact = weights.map((weight) => (amount * weight) / whole);
  const shares = exact.map(Math.floor);
  let left = amount - shares.reduce((sum, share) => sum + share, 0);
  const byRemainder = exact
    .map((value, index) => ({ index, remainder: value - Math.floor(value) }))
    .sort((a, b) => b.remainder - a.remainder);
  for (const { index } of byRemainder) {
    if (left <= 0) break;
    shares[index] = (shares[index] ?? 0) + 1;
    left -= 1;
  }
  return shares;
}

/**
 * The lines of a credit note: the invoice's lines negated when all of it is given back; else one
 * line per VAT rate of the invoice, the amount shared in proportion to the rates' totals (the
 * rounding's cents distributed, so the lines add up to the amount exactly), each VAT-inclusive.
 */
function creditLines(invoice: InvoiceRow, document: InvoiceDocument, amount: number, description: string): InvoiceLine[] {
  if (amount >= invoice.total_including_vat) return document.lines.map(negate);
  const totals = document.vat_totals.filter((total) => total.total_including_vat !== 0);
  const shares = shareInProportion(
    amount,
    totals.map((total) => total.total_including_vat),
  );
  return totals.map((total, index) => inclusiveLine(description, -(shares[index] ?? 0), total.vat));
}

/**
 * A credit note for money given back on a paid payment (a refund, a chargeback): negative amounts,
 * the account's next number from the invoices' own sequence, referring to the payment's invoice.
 * Once per `sourceKey` (unique per account): called again — a repeated webhook, a resumed refund —
 * it answers the note made before. Null when the payment has no issued invoice to credit.
 * Call it in the transaction that records the money going back.
 */
export async function issueCreditNote(ctx: AppContext, trx: Knex.Transaction, request: CreditNoteRequest): Promise<CreditNoteRow | null> {
  const earlier = await invoicesRepository.creditNoteBySource(trx, request.accountId, request.sourceKey);
  if (earlier) return earlier;
  const invoice = await invoicesRepository.issuedOfPayment(trx, request.accountId, request.paymentId);
  if (!invoice?.document || !invoice.number || request.amount <= 0) return null;
  const invoiceDocument = JSON.parse(invoice.document) as InvoiceDocument;
  const payment = await invoicesRepository.paymentOf(trx, request.accountId, request.paymentId);
  if (!payment) return null;
  const customer = invoice.customer_id ? await invoicesRepository.customerOf(trx, request.accountId, invoice.customer_id) : undefined;
  const now = toDbDateTime(ctx.clock.now());
  const description = invoiceDocument.lines.length === 1 ? (invoiceDocument.lines[0]?.description ?? '') : `${invoice.number}`;
  const lines = creditLines(invoice, invoiceDocument, request.amount, description);
  const { number, settings } = await invoiceSettingsRepository.takeNumber(trx, request.accountId, now, 'credit_note');
  const document = await buildDocument(trx, {
    kind: 'credit_note',
    accountId: request.accountId,
    settings,
    number,
    creditsNumber: invoice.number,
    customer: customer ?? null,
    payment,
    lines,
    treatment: { reverseCharge: invoiceDocument.reverse_charge, ossCountry: invoiceDocument.oss_country },
    issuedAt: now,
    timeZone: ctx.config.APP_TIMEZONE,
  });
  // The seller and buyer as the invoice named them: a credit note corrects that invoice.
  document.seller = invoiceDocument.seller;
  document.buyer = invoiceDocument.buyer;
  document.locale = invoiceDocument.locale;
  const row: CreditNoteRow = {
    id: newId('crn'),
    account_id: request.accountId,
    invoice_id: invoice.id,
    payment_id: payment.id,
    number,
    reason: request.reason,
    source_key: request.sourceKey,
    currency: invoice.currency,
    lines: JSON.stringify(lines),
    total_excluding_vat: document.total_excluding_vat,
    total_vat: document.total_vat,
    total_including_vat: document.total_including_vat,
    document: JSON.stringify(document),
    created_at: now,
  };
  await invoicesRepository.insertCreditNote(trx, row);
  if (settings.mail_when_paid) {
    await mailDocument(ctx, trx, { kind: 'credit_note', id: row.id, number, amount: -row.total_including_vat, payment, document });
  }
  ctx.logger.info('credit note issued', { accountId: row.account_id, creditNoteId: row.id, invoiceId: invoice.id, reason: row.reason });
  return row;
}

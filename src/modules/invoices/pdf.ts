import type { Knex } from 'knex';
import PDFDocument from 'pdfkit';
import { NotFoundError } from '../../errors';
import { invoicesRepository } from './repository';
import type { PageLocale } from '../../i18n/locales';
import { LABELS, type Labels } from './pdfStrings';
import type { InvoiceDocument, LinePeriod, Party } from './document';
import { utcMidnightOf } from '../../time/calendar';

const money = (cents: number, currency: string, locale: PageLocale) =>
  new Intl.NumberFormat(locale, { style: 'currency', currency }).format(cents / 100).replace(/\u00a0|\u202f/g, ' ');

const dateText = (date: string, locale: PageLocale) =>
  new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' }).format(utcMidnightOf(date));

const rateText = (rate: string | null, locale: PageLocale) => (rate === null ? '0' : Number(rate).toLocaleString(locale));

/** A line's period of supply ("Period: 1 December 2026 – 31 December 2026"), its one date when it is a day. */
function periodText(period: LinePeriod | null | undefined, labels: Labels, locale: PageLocale): string | null {
  if (!period) return null;
  if (period.start === period.end) return `${labels.suppliedOn}: ${dateText(period.start, locale)}`;
  return `${labels.period}: ${dateText(period.start, locale)} – ${dateText(period.end, locale)}`;
}

function partyLines(party: Party, labels: Labels): string[] {
  return [
    party.organization,
    party.name,
    party.address,
    [party.postal_code, party.city].filter(Boolean).join(' ') || null,
    party.country,
    party.vat_number ? `${labels.vatNumber}: ${party.vat_number}` : null,
    party.coc_number ? `${labels.cocNumber}: ${party.coc_number}` : null,
    party.email,
  ].filter((line): line is string => Boolean(line));
}

/** The name a document's PDF is saved under: its title in its language and its number (`Factuur-2026-7.pdf`). */
export function documentFileName(document: Pick<InvoiceDocument, 'kind' | 'locale' | 'number'>): string {
  const labels = LABELS[document.locale];
  const title = document.kind === 'credit_note' ? labels.creditNote : labels.invoice;
  return `${title}-${document.number ?? ''}`.replace(/[^\p{L}\p{N}.-]+/gu, '_') + '.pdf';
}

/** The invoice or credit note as a PDF (A4), in its locale, drawn from its stored snapshot. */
export function renderInvoicePdf(document: InvoiceDocument): Promise<Buffer> {
  const labels = LABELS[document.locale];
  const { locale, currency } = document;
  const pdf = new PDFDocument({ size: 'A4', margin: 50, info: { Title: `${document.number ?? ''}`, Producer: 'recurring-payments' } });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    pdf.on('data', (chunk: Buffer) => chunks.push(chunk));
    pdf.on('end', () => resolve(Buffer.concat(chunks)));
    pdf.on('error', reject);
  });

  pdf
    .font('Helvetica-Bold')
    .fontSize(20)
    .text(document.kind === 'credit_note' ? labels.creditNote : labels.invoice);
  pdf.moveDown(0.5).font('Helvetica').fontSize(10);
  pdf.text(`${labels.number}: ${document.number ?? '-'}`);
  pdf.text(`${labels.date}: ${dateText(document.issued_on, locale)}`);
  if (document.credits_number) pdf.text(`${labels.credits}: ${document.credits_number}`);
  pdf.moveDown();

  const top = pdf.y;
  pdf.font('Helvetica-Bold').text(labels.from, 50, top);
  pdf.font('Helvetica').text(partyLines(document.seller, labels).join('\n'), 50, pdf.y, { width: 230 });
  const leftBottom = pdf.y;
  if (document.buyer) {
    pdf.font('Helvetica-Bold').text(labels.to, 310, top);
    pdf.font('Helvetica').text(partyLines(document.buyer, labels).join('\n'), 310, pdf.y, { width: 230 });
  }
  pdf.y = Math.max(leftBottom, pdf.y) + 20;

  const columns = [
    { x: 50, width: 220, align: 'left' as const },
    { x: 270, width: 40, align: 'right' as const },
    { x: 310, width: 80, align: 'right' as const },
    { x: 390, width: 50, align: 'right' as const },
    { x: 440, width: 105, align: 'right' as const },
  ];
  const row = (cells: string[], bold = false) => {
    const y = pdf.y;
    pdf.font(bold ? 'Helvetica-Bold' : 'Helvetica');
    let bottom = y;
    cells.forEach((cell, index) => {
      const column = columns[index];
      if (!column) return;
      pdf.text(cell, column.x, y, { width: column.width, align: column.align });
      bottom = Math.max(bottom, pdf.y);
    });
    pdf.y = bottom + 4;
  };
  row([labels.description, labels.quantity, labels.unitPrice, labels.vat, labels.amount], true);
  for (const line of document.lines) {
    row([
      [line.description, periodText(line.period, labels, locale)].filter(Boolean).join('\n'),
      String(line.quantity),
      money(line.amount, currency, locale),
      `${rateText(line.vat, locale)}%`,
      money(line.total_excluding_vat, currency, locale),
    ]);
  }
  pdf.moveDown();

  const total = (label: string, cents: number, bold = false) => {
    const y = pdf.y;
    pdf.font(bold ? 'Helvetica-Bold' : 'Helvetica');
    pdf.text(label, 270, y, { width: 170, align: 'right' });
    pdf.text(money(cents, currency, locale), 440, y, { width: 105, align: 'right' });
    pdf.y = Math.max(pdf.y, y + 14);
  };
  total(labels.totalExcluding, document.total_excluding_vat);
  for (const vat of document.vat_totals) total(labels.vatAt(rateText(vat.vat, locale)), vat.total_vat);
  total(labels.total, document.total_including_vat, true);
  pdf.moveDown();

  pdf.font('Helvetica').text(`${labels.paymentReference}: ${document.payment_reference}`, 50, pdf.y, { width: 495 });
  if (document.reverse_charge) pdf.text(labels.reverseCharge, 50, pdf.y, { width: 495 });
  if (document.oss_country) pdf.text(labels.oss(document.oss_country), 50, pdf.y, { width: 495 });
  if (document.kind === 'invoice') pdf.text(labels.paid, 50, pdf.y, { width: 495 });
  pdf.end();
  return done;
}

/** An issued invoice's PDF (only an issued invoice has a number and a snapshot); 404 otherwise. */
export async function invoicePdfOf(db: Knex, accountId: string, id: string): Promise<{ number: string; pdf: Buffer }> {
  const row = await invoicesRepository.find(db, accountId, id);
  if (!row || row.status !== 'issued' || !row.document || !row.number) throw new NotFoundError('Invoice');
  return { number: row.number, pdf: await renderInvoicePdf(JSON.parse(row.document) as InvoiceDocument) };
}

/** A credit note's PDF, found under its invoice; 404 otherwise. */
export async function creditNotePdfOf(
  db: Knex,
  accountId: string,
  invoiceId: string,
  id: string,
): Promise<{ number: string; pdf: Buffer }> {
  const note = await invoicesRepository.findCreditNote(db, accountId, invoiceId, id);
  if (!note) throw new NotFoundError('Credit note');
  return { number: note.number, pdf: await renderInvoicePdf(JSON.parse(note.document) as InvoiceDocument) };
}

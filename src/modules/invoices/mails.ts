import type { Knex } from 'knex';
import type { AppContext } from '../../context';
import type { MailAttachmentSource } from '../../mail/delivery';
import { queueMail } from '../../mail/queue';
import { merchantProfileOf } from '../accounts/profile';
import type { PaymentRow } from '../payments/repository';
import type { InvoiceDocument } from './document';
import { invoicesRepository } from './repository';
import { documentFileName, renderInvoicePdf } from './pdf';

/** An issued invoice or credit note to mail to the customer who paid. */
export interface MailedDocument {
  kind: 'invoice' | 'credit_note';
  id: string;
  number: string;
  /** Cents, positive: what was paid, or what a credit note gives back. */
  amount: number;
  payment: PaymentRow;
  document: InvoiceDocument;
}

/**
 * Queues the document's mail to the paying customer in the transaction that issued it (the mail
 * exists exactly when the document does; once per document: its dedupe key), in the document's
 * language, the PDF named as its attachment and drawn when the mail is sent. A payment without a
 * customer, or a customer without an e-mail address, gets none.
 */
export async function mailDocument(ctx: AppContext, trx: Knex.Transaction, mailed: MailedDocument): Promise<void> {
  const { payment, document } = mailed;
  if (!payment.customer_id) return;
  const customer = await invoicesRepository.customerOf(trx, payment.account_id, payment.customer_id);
  if (!customer?.email) return;
  const merchant = await merchantProfileOf(trx, payment.account_id);
  const name = [customer.first_name, customer.last_name].filter(Boolean).join(' ').trim();
  await queueMail(trx, ctx, {
    accountId: payment.account_id,
    to: customer.email,
    locale: document.locale,
    template: 'invoice',
    data: {
      merchantName: merchant.displayName,
      contactEmail: merchant.contactEmail,
      customerName: name || null,
      kind: mailed.kind,
      number: mailed.number,
      issuedOn: document.issued_on,
      amountCents: mailed.amount,
      currency: document.currency,
      portalUrl: `${ctx.config.publicUrl}/portal`,
    },
    dedupeKey: `${mailed.kind}:${mailed.id}`,
    attachment: `${mailed.kind}:${mailed.id}`,
  });
}

/** The PDF a mail names: an issued invoice or a credit note of the mail's own account; null when there is none. */
export const documentAttachment: MailAttachmentSource = async (ctx, mail) => {
  const [kind, id] = (mail.attachment ?? '').split(':');
  if (!id) return null;
  const stored =
    kind === 'invoice'
      ? await invoicesRepository.find(ctx.db, mail.account_id, id)
      : kind === 'credit_note'
        ? await invoicesRepository.creditNoteById(ctx.db, mail.account_id, id)
        : undefined;
  if (!stored?.document) return null;
  const document = JSON.parse(stored.document) as InvoiceDocument;
  return { filename: documentFileName(document), content: await renderInvoicePdf(document), contentType: 'application/pdf' };
};

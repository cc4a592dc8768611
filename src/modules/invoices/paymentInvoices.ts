import type { Knex } from 'knex';
import type { AppContext } from '../../context';
import type { StoreInvoiceLine } from '../../integrations/records';
import { toDbDateTime } from '../../time';
import { followUpsRepository, type FollowUpRow } from '../follow-ups/repository';
import { paymentLinksRepository } from '../links/repository';
import { ordersRepository } from '../orders/repository';
import { paymentsRepository, type PaymentRow } from '../payments/repository';
import { chargesRepository } from '../subscriptions/chargesRepository';
import { invoicesRepository } from './repository';
import { chargeSubject, oweInvoice, type InvoiceSubject } from './issuing';
import { invoiceSettingsRepository } from './settingsRepository';
import { storeLine, unnamedRateRefusal } from './storeLines';

/**
 * Invoices of the payments that are not a charge's own (those are owed where the charge settles):
 * a follow-up's retry or link paying a charge's period, money charged back and paid again, and — when
 * the account wants them — paid payment links and store orders. Owed in the payment's status
 * transaction; what it is invoiced for is decided when it is issued (owed.ts).
 */
export function registerPaymentInvoices(ctx: AppContext): void {
  ctx.settlements.on('invoices', ['follow-up', 'link', 'order'], async (trx, { payment, to }) => {
    if (to !== 'paid' || payment.purpose_id === null) return;
    if (!(await paidTwice(trx, payment, payment.purpose_id))) await oweInvoice(ctx, trx, payment, null);
  });
}

/**
 * A link or order paid a second time is refunded (doublePayments.ts): only the first paid is owed an
 * invoice. Decided here, in the status transaction, as the first sees no other paid payment yet.
 */
async function paidTwice(trx: Knex.Transaction, payment: PaymentRow, purposeId: string): Promise<boolean> {
  if (payment.purpose === 'follow-up') return false;
  // A link a follow-up sent pays what the follow-up is about (see subjectOf).
  if (payment.purpose === 'link' && (await followUpsRepository.ofLink(trx, payment.account_id, purposeId)).length) return false;
  return (await paymentsRepository.findOtherPaid(trx, payment)) !== undefined;
}

/** What a paid payment that is not a charge's own is invoiced for; null when nothing. */
export async function paymentInvoiceSubject(ctx: AppContext, trx: Knex.Transaction, payment: PaymentRow): Promise<InvoiceSubject | null> {
  return payment.purpose_id === null ? null : subjectOf(ctx, trx, payment, payment.purpose_id);
}

async function subjectOf(ctx: AppContext, trx: Knex.Transaction, payment: PaymentRow, purposeId: string): Promise<InvoiceSubject | null> {
  const accountId = payment.account_id;
  if (payment.purpose === 'follow-up') {
    const followUp = await followUpsRepository.find(trx, accountId, purposeId);
    return followUp ? followUpSubject(trx, followUp, payment) : null;
  }
  if (payment.purpose === 'link') {
    // A link a follow-up sent pays what the follow-up is about, whatever the account says of links.
    const [followUp] = await followUpsRepository.ofLink(trx, accountId, purposeId);
    if (followUp) return followUpSubject(trx, followUp, payment);
  }
  const settings = await invoiceSettingsRepository.settingsOf(trx, accountId, toDbDateTime(ctx.clock.now()));
  if (payment.purpose === 'link' && settings.invoice_links) return linkSubject(trx, payment, purposeId);
  if (payment.purpose === 'order' && settings.invoice_orders) return orderSubject(trx, payment, purposeId);
  return null;
}

const unattached = { subscriptionId: null, chargeId: null, linkId: null, orderId: null };

/**
 * A follow-up's payment pays the charge it follows up: a failed charge's or one not made for want of a
 * mandate is the charge's invoice (it had none); money charged back and paid again is a new invoice
 * beside the one its credit note corrected — of the charge's subscription, or of the link or order it was.
 */
async function followUpSubject(trx: Knex.Transaction, followUp: FollowUpRow, payment: PaymentRow): Promise<InvoiceSubject | null> {
  const accountId = followUp.account_id;
  const original = followUp.payment_id ? await paymentsRepository.find(trx, accountId, followUp.payment_id) : undefined;
  const mandateCharge = followUp.kind === 'mandate' ? followUp.origin_key.replace(/^mandate-/, '') : null;
  const chargeId = mandateCharge ?? (original?.purpose === 'charge' ? original.purpose_id : null);
  const charge = chargeId ? await chargesRepository.find(trx, accountId, chargeId) : undefined;
  if (followUp.kind === 'failure' || followUp.kind === 'mandate') {
    return charge ? chargeSubject(trx, charge, payment, { chargeId: charge.id, amount: payment.amount }) : null;
  }
  if (followUp.kind !== 'chargeback' || !original) return null;
  if (charge) return chargeSubject(trx, charge, payment, { chargeId: null, amount: payment.amount });
  // A link or order charged back: invoiced again only if it was invoiced (and so credited).
  if (!(await invoicesRepository.issuedOfPayment(trx, accountId, original.id))) return null;
  return {
    payment,
    amount: payment.amount,
    ...unattached,
    linkId: original.purpose === 'link' ? original.purpose_id : null,
    orderId: original.purpose === 'order' ? original.purpose_id : null,
    lines: { from: 'amount', description: followUp.description },
  };
}

/**
 * A paid link: one line of what was paid, named as the link. A subscription link's first payment that
 * its first charge's invoice already covers (the rule's own amount) adds nothing: one invoice per payment.
 */
async function linkSubject(trx: Knex.Transaction, payment: PaymentRow, linkId: string): Promise<InvoiceSubject | null> {
  const link = await paymentLinksRepository.find(trx, payment.account_id, linkId);
  // A mandate link's small payment only proves the account: it sells nothing.
  if (!link || link.type === 'mandate') return null;
  if (link.subscription_id && (await invoicesRepository.issuedOfPayment(trx, payment.account_id, payment.id))) return null;
  return {
    payment,
    amount: payment.amount,
    ...unattached,
    subscriptionId: link.subscription_id,
    linkId: link.id,
    lines: { from: 'amount', description: link.description },
  };
}

/**
 * A paid store order: the lines the store invoiced (items, shipping, fees) with its own VAT; one line of
 * the amount paid when the store did not say them. A line taxed at a rate the store did not name is
 * not guessed: the invoice is not issued, and says why.
 */
async function orderSubject(trx: Knex.Transaction, payment: PaymentRow, orderId: string): Promise<InvoiceSubject | null> {
  const order = await ordersRepository.find(trx, payment.account_id, orderId);
  if (!order) return null;
  const stored = order.invoice_lines ? (JSON.parse(order.invoice_lines) as StoreInvoiceLine[]) : [];
  return {
    payment,
    amount: payment.amount,
    ...unattached,
    orderId: order.id,
    lines: stored.length
      ? {
          from: 'store',
          lines: stored.map(storeLine),
          refusal: unnamedRateRefusal(stored),
        }
      : { from: 'amount', description: `Order ${order.shop_order_number ?? order.order_number}` },
  };
}

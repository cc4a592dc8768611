import { formatCents } from '../../money';
import type { PaymentForStore } from '../records';

/**
 * The order notes the merchant reads in the store. They name the payment as the provider's dashboard
 * shows it (the provider's name and id) and as ours (our id), so either can be looked up.
 */

const providerPayment = (payment: PaymentForStore) => `${payment.providerName} payment ${payment.providerPaymentId ?? payment.id}`;

const outcome = (payment: PaymentForStore) => `${payment.status}${payment.failureReason ? ` (${payment.failureReason})` : ''}`;

export const paidNote = (payment: PaymentForStore) =>
  `Paid: ${providerPayment(payment)} (${payment.currency} ${formatCents(payment.amount)}), recurring payments service payment ` +
  `${payment.id}.`;

/** Added to the paid note when the order had moved on in the store (cancelled, refunded) before its payment came in. */
export const latePaymentNote = (storeStatus: string) =>
  ` The order was ${storeStatus} in the store: refund the payment or reopen the order.`;

export const unpaidNote = (payment: PaymentForStore) =>
  `${providerPayment(payment)} ${outcome(payment)}: the order is not paid and can still be paid.`;

export const renewalNote = (parentShopOrderNumber: string, payment: PaymentForStore) =>
  `Renewal of order #${parentShopOrderNumber}. ` +
  (payment.status === 'paid' ? paidNote(payment) : `Renewal not paid: ${providerPayment(payment)} ${outcome(payment)}.`);

/** A paid order whose subscription products started nothing: what the merchant must fix (the store's order lacked it). */
export const subscriptionRefusedNote = (reason: string) =>
  `No subscription was started for this order: ${reason} The buyer is not charged again; start the subscription by hand once the ` +
  `amount is known.`;

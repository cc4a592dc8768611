import type { PaymentExpiry } from './adapter';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * How long after creation a payment of each method usually stays open or pending, as the European
 * acquirers document it (each adapter says whose numbers it follows): iDEAL and paysafecard
 * 15 minutes; credit card 30 minutes; Bancontact, Belfius, EPS, giropay, KBC, MyBank, Przelewy24
 * 1 hour; SOFORT 2 hours; PayPal and vouchers 3 hours; Klarna 48 hours; bank transfer 12 days, plus
 * 1 or 2 when the 12th day falls in a weekend. SEPA Direct Debit is pending until the bank answers,
 * up to about 5 working days: 7 calendar days. Past this time a payment that is still open here has
 * most likely lost its webhook.
 *
 * No method yet (the payer picks one on the checkout page) or one not listed: after the longest of
 * the redirect methods. Should the payer have picked a bank transfer, the fetch finds it still open
 * and reconciliation asks again later, no more often than it rechecks any payment.
 */
export const USUAL_PAYMENT_EXPIRY: PaymentExpiry = {
  byMethod: {
    ideal: 15 * MINUTE,
    paysafecard: 15 * MINUTE,
    creditcard: 30 * MINUTE,
    bancontact: HOUR,
    belfius: HOUR,
    eps: HOUR,
    giropay: HOUR,
    kbc: HOUR,
    mybank: HOUR,
    przelewy24: HOUR,
    sofort: 2 * HOUR,
    paypal: 3 * HOUR,
    voucher: 3 * HOUR,
    klarnapaylater: 48 * HOUR,
    klarnasliceit: 48 * HOUR,
    klarnapaynow: 48 * HOUR,
    banktransfer: 14 * DAY,
    directdebit: 7 * DAY,
  },
  otherwise: 3 * HOUR,
};

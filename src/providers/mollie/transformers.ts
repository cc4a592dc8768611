import {
  Locale,
  MandateMethod as MollieMandateMethod,
  PaymentStatus as MolliePaymentStatus,
  SequenceType as MollieSequenceType,
  type CustomerCreateParams,
  type CustomerUpdateParams,
  type Mandate,
  type MandateCreateParams,
  type Payment,
  type PaymentCreateParams,
  type PaymentMethod,
  type Refund,
  type Subscription,
} from '@mollie/api-client';
import { centsFromDecimalString, formatCents, type Cents } from '../../money';
import { ProviderFailedError } from '../errors';
import type {
  PaymentStatus,
  ProviderCustomerInput,
  ProviderMandate,
  ProviderMandateInput,
  ProviderPayment,
  ProviderPaymentInput,
  ProviderRefund,
  ProviderRefundInput,
  RefundStatus,
  ProviderCustomerSummary,
  ProviderInterval,
  ProviderSubscription,
  ProviderSubscriptionStatus,
} from '../types';
import { PROVIDER_SUBSCRIPTION_STATUSES, REFUND_STATUSES } from '../types';
import { dateFromIso } from '../../time';

/**
 * Request and response shapes between our provider contract and Mollie's API v2, and the one
 * mapping of Mollie's payment statuses to ours. No I/O here; see provider.ts for the plumbing.
 */

/** Our customer locales (API field `locale`) as Mollie's locale codes. */
const MOLLIE_LOCALES: Readonly<Record<string, Locale>> = {
  nl: Locale.nl_NL,
  en: Locale.en_US,
  fr: Locale.fr_FR,
  de: Locale.de_DE,
  es: Locale.es_ES,
};

/**
 * Mollie request field → the field of OUR API the client sent it in, per operation, so a Mollie 422
 * names the field the client can fix. Fields we fill ourselves (webhookUrl, metadata, ...) are absent.
 */
export type FieldNames = Readonly<Record<string, string>>;

// `name` is first_name + last_name on our side: no single field to blame.
export const CUSTOMER_FIELDS: FieldNames = { email: 'email', locale: 'locale' };

export const MANDATE_FIELDS: FieldNames = {
  consumerName: 'consumer_name',
  consumerAccount: 'consumer_account',
  mandateReference: 'custom_mandate_reference',
};

export const PAYMENT_FIELDS: FieldNames = {
  amount: 'amount',
  'amount.value': 'amount',
  'amount.currency': 'currency',
  description: 'description',
  redirectUrl: 'redirect_url',
  method: 'method',
  customerId: 'provider_customer_id',
};

export function customerParams(input: ProviderCustomerInput): CustomerCreateParams & CustomerUpdateParams {
  const locale = input.locale === null ? undefined : MOLLIE_LOCALES[input.locale];
  return {
    name: input.name,
    email: input.email,
    // Mollie has no "no locale": a removed locale leaves Mollie's as it was (it only picks the checkout language).
    ...(locale ? { locale } : {}),
    metadata: { customer_id: input.reference },
  };
}

export function mandateParams(input: ProviderMandateInput): Omit<MandateCreateParams, 'idempotencyKey'> {
  return {
    customerId: input.customerId,
    method: MollieMandateMethod.directdebit,
    consumerName: input.consumerName,
    consumerAccount: input.consumerAccount,
    ...(input.consumerBic ? { consumerBic: input.consumerBic } : {}),
    signatureDate: input.signatureDate,
    mandateReference: input.mandateReference,
  };
}

export interface PaymentParamsOptions {
  /** Mollie refuses webhook URLs it cannot reach; leave ours out then (reconciliation covers it). */
  sendWebhookUrl: boolean;
}

export function paymentParams(input: ProviderPaymentInput, options: PaymentParamsOptions): Omit<PaymentCreateParams, 'idempotencyKey'> {
  return {
    amount: { currency: input.currency, value: formatCents(input.amount) },
    description: input.description,
    // A recurring charge has no payer at a checkout to send back anywhere.
    ...(input.sequenceType !== 'recurring' && input.redirectUrl ? { redirectUrl: input.redirectUrl } : {}),
    ...(options.sendWebhookUrl && input.webhookUrl ? { webhookUrl: input.webhookUrl } : {}),
    // Our method names are Mollie's; Mollie itself refuses one it does not offer (a 422 on `method`).
    ...(input.method ? { method: input.method as PaymentMethod } : {}),
    ...(input.customerId ? { customerId: input.customerId } : {}),
    ...(input.mandateId ? { mandateId: input.mandateId } : {}),
    sequenceType: MollieSequenceType[input.sequenceType],
    // No profileId: an API key is bound to its profile, and for an organization token the client
    // adds the account's configured one (parameterDefaults). A request cannot pick another.
    metadata: { payment_id: input.reference },
  };
}

/** Whether a URL points at this machine, where Mollie cannot deliver a webhook. */
export function isLocalUrl(url: string): boolean {
  const host = new URL(url).hostname.toLowerCase();
  return host === 'localhost' || host.endsWith('.localhost') || host === '[::1]' || host === '0.0.0.0' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** Mollie's decimal string ("12.50", "1000.00") as cents; anything else is a provider fault. */
export function centsFromValue(value: string): Cents {
  const cents = centsFromDecimalString(value);
  if (cents === null) throw new ProviderFailedError(`unexpected amount "${value}"`);
  return cents;
}

type StatusFacts = Pick<Payment, 'status' | 'amount' | 'amountRefunded' | 'amountChargedBack'>;

/**
 * THE mapping of Mollie's payment status to ours. Mollie keeps a refunded or charged-back payment
 * `paid` and reports the money that went back in amountRefunded / amountChargedBack; we make those
 * statuses of their own. A partial refund leaves the payment paid.
 */
export function paymentStatusFrom(payment: StatusFacts): PaymentStatus {
  if (payment.amountChargedBack && centsFromValue(payment.amountChargedBack.value) > 0) return 'charged_back';
  switch (payment.status) {
    case MolliePaymentStatus.paid:
      if (payment.amountRefunded && centsFromValue(payment.amountRefunded.value) >= centsFromValue(payment.amount.value)) return 'refunded';
      return 'paid';
    case MolliePaymentStatus.open:
      return 'open';
    case MolliePaymentStatus.pending:
      return 'pending';
    case MolliePaymentStatus.authorized:
      return 'authorized';
    case MolliePaymentStatus.canceled:
      return 'canceled';
    case MolliePaymentStatus.expired:
      return 'expired';
    case MolliePaymentStatus.failed:
      return 'failed';
    default:
      // Deliberately not mapped to `pending`: a status Mollie adds later may mean money moved (or
      // went back), and a guess would settle, or fail to settle, an order. The fetch fails instead,
      // loudly: the webhook call is retried with backoff for 26 hours and then left to reconciliation,
      // which asks again every RECHECK_AFTER; the payment keeps its last known status meanwhile and
      // every attempt logs this message, until the mapping here learns the new status.
      throw new ProviderFailedError(`unknown payment status "${String(payment.status)}"`);
  }
}

/** A non-empty string field of Mollie's `details`, whose shape depends on the payment method. */
function detailText(details: unknown, key: string): string | null {
  if (typeof details !== 'object' || details === null) return null;
  const value = (details as Record<string, unknown>)[key];
  return typeof value === 'string' && value !== '' ? value : null;
}

/** SEPA reports the bank's reason (AM04, MD06, ...); cards report Mollie's failureReason with a message. */
function failureOf(details: unknown): Pick<ProviderPayment, 'failureCode' | 'failureReason'> {
  const bankCode = detailText(details, 'bankReasonCode');
  const bankReason = detailText(details, 'bankReason');
  if (bankCode || bankReason) return { failureCode: bankCode, failureReason: bankReason };
  return { failureCode: detailText(details, 'failureReason'), failureReason: detailText(details, 'failureMessage') };
}

/** Our own id as we left it in an object's metadata (`payment_id`, `customer_id`), or null. */
export function referenceIn(metadata: unknown, key: 'payment_id' | 'customer_id' | 'refund_id'): string | null {
  if (typeof metadata !== 'object' || metadata === null) return null;
  const value = (metadata as Record<string, unknown>)[key];
  return typeof value === 'string' ? value : null;
}

/** An amount Mollie leaves out when nothing applies (no refund, no chargeback) is zero. */
const centsOrZero = (amount: Payment['amount'] | undefined): Cents => (amount ? centsFromValue(amount.value) : 0);

export function providerPaymentFrom(payment: Payment): ProviderPayment {
  return {
    id: payment.id,
    status: paymentStatusFrom(payment),
    amount: centsFromValue(payment.amount.value),
    currency: payment.amount.currency,
    method: payment.method ?? null,
    checkoutUrl: payment._links.checkout?.href ?? null,
    customerId: payment.customerId ?? null,
    mandateId: payment.mandateId ?? null,
    paidAt: payment.paidAt ? dateFromIso(payment.paidAt) : null,
    ...failureOf(payment.details),
    amountRefunded: centsOrZero(payment.amountRefunded),
    amountChargedBack: centsOrZero(payment.amountChargedBack),
    reference: referenceIn(payment.metadata, 'payment_id'),
    createdAt: dateFromIso(payment.createdAt),
  };
}

/** Whether the mandate is of a method we charge on (Mollie also has PayPal mandates). */
export function isSupportedMandate(mandate: Pick<Mandate, 'method'>): boolean {
  return mandate.method === MollieMandateMethod.directdebit || mandate.method === MollieMandateMethod.creditcard;
}

export function providerMandateFrom(mandate: Mandate): ProviderMandate {
  if (!isSupportedMandate(mandate)) {
    throw new ProviderFailedError(`unsupported mandate method "${String(mandate.method)}"`);
  }
  const { details } = mandate;
  return {
    id: mandate.id,
    method: mandate.method === MollieMandateMethod.creditcard ? 'creditcard' : 'directdebit',
    status: mandate.status,
    mandateReference: mandate.mandateReference ?? null,
    signatureDate: mandate.signatureDate ?? null,
    details: {
      consumerName: detailText(details, 'consumerName'),
      consumerAccount: detailText(details, 'consumerAccount'),
      consumerBic: detailText(details, 'consumerBic'),
      cardHolder: detailText(details, 'cardHolder'),
      cardNumber: detailText(details, 'cardNumber'),
      cardExpiryDate: detailText(details, 'cardExpiryDate'),
      cardLabel: detailText(details, 'cardLabel'),
      cardFingerprint: detailText(details, 'cardFingerprint'),
    },
  };
}

/** Mollie's interval: a whole number and days, weeks or months ("1 month", "14 days", "2 weeks"). */
const INTERVAL_PATTERN = /^\s*(\d{1,4})\s+(day|days|week|weeks|month|months)\s*$/i;

/**
 * Mollie's interval text as { unit, count }, or why it cannot be read. Mollie documents only
 * "… days", "… weeks" and "… months"; anything else (a text Mollie adds later) is refused, never guessed.
 */
export function intervalFromMollie(text: string): { interval: ProviderInterval } | { problem: string } {
  const match = INTERVAL_PATTERN.exec(text);
  const count = match ? Number(match[1]) : 0;
  if (!match || count < 1) {
    return { problem: `unreadable interval "${text}": Mollie's interval is expected as "<n> days", "<n> weeks" or "<n> months"` };
  }
  const word = (match[2] ?? '').toLowerCase();
  const unit = word.startsWith('day') ? 'day' : word.startsWith('week') ? 'week' : 'month';
  return { interval: { unit, count } };
}

function subscriptionStatusFrom(status: string): ProviderSubscriptionStatus {
  const known = PROVIDER_SUBSCRIPTION_STATUSES.find((candidate) => candidate === status);
  // As with payments: a status Mollie adds later is not guessed at.
  if (!known) throw new ProviderFailedError(`unknown subscription status "${status}"`);
  return known;
}

/** Mollie leaves `times`/`timesRemaining` out (or null) for a subscription without end. */
const countOrNull = (value: unknown): number | null => (typeof value === 'number' && Number.isInteger(value) ? value : null);

export function providerSubscriptionFrom(subscription: Subscription): ProviderSubscription {
  const read = intervalFromMollie(subscription.interval);
  return {
    id: subscription.id,
    customerId: subscription.customerId,
    mandateId: subscription.mandateId ?? null,
    status: subscriptionStatusFrom(String(subscription.status)),
    amount: centsFromValue(subscription.amount.value),
    currency: subscription.amount.currency,
    interval: 'interval' in read ? read.interval : null,
    intervalText: subscription.interval,
    intervalProblem: 'problem' in read ? read.problem : null,
    times: countOrNull(subscription.times),
    timesRemaining: countOrNull(subscription.timesRemaining),
    startDate: subscription.startDate,
    nextPaymentDate: subscription.nextPaymentDate ?? null,
    description: subscription.description,
    metadata: subscription.metadata ?? null,
    canceledAt: subscription.canceledAt ? dateFromIso(subscription.canceledAt) : null,
  };
}

export function customerSummaryFrom(customer: { id: string; name?: string | null; email?: string | null }): ProviderCustomerSummary {
  return { id: customer.id, name: customer.name ?? null, email: customer.email ?? null };
}

export const REFUND_FIELDS: FieldNames = { amount: 'amount', 'amount.value': 'amount', description: 'description' };

export function refundParams(paymentId: string, input: ProviderRefundInput) {
  return {
    paymentId,
    amount: { currency: input.currency, value: formatCents(input.amount) },
    description: input.description,
    metadata: { refund_id: input.reference },
  };
}

/** Mollie's refund statuses are ours; one we do not know (a new one) counts as still under way. */
export function providerRefundFrom(
  refund: Pick<Refund, 'id' | 'paymentId' | 'status' | 'amount' | 'metadata' | 'createdAt'>,
): ProviderRefund {
  const status = (REFUND_STATUSES as readonly string[]).includes(refund.status) ? (refund.status as RefundStatus) : 'pending';
  return {
    id: refund.id,
    paymentId: refund.paymentId,
    status,
    amount: centsFromValue(refund.amount.value),
    currency: refund.amount.currency,
    reference: referenceIn(refund.metadata, 'refund_id'),
    createdAt: dateFromIso(refund.createdAt),
  };
}

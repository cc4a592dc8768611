import type { Cents } from '../money';

/** Our payment statuses; the provider's own are mapped onto these in each provider's adapter. */
export const PAYMENT_STATUSES = [
  'open',
  'pending',
  'authorized',
  'paid',
  'canceled',
  'expired',
  'failed',
  'refunded',
  'charged_back',
] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

export type SequenceType = 'oneoff' | 'first' | 'recurring';
/** The payments a method list is for: nobody lists methods for a recurring charge, which has no checkout. */
export type MethodSequenceType = Exclude<SequenceType, 'recurring'>;
export type MandateMethod = 'directdebit' | 'creditcard';
export type MandateStatus = 'valid' | 'invalid' | 'pending';

export interface ProviderCustomerInput {
  name: string;
  email: string;
  locale: string | null;
  /** Our own customer id, kept at the provider for support look-ups. */
  reference: string;
}

export interface ProviderMandateInput {
  customerId: string;
  consumerName: string;
  consumerAccount: string;
  consumerBic: string | null;
  signatureDate: string; // Y-m-d
  mandateReference: string;
}

export interface ProviderMandate {
  id: string;
  method: MandateMethod;
  status: MandateStatus;
  mandateReference: string | null;
  signatureDate: string | null;
  details: {
    consumerName?: string | null;
    consumerAccount?: string | null;
    consumerBic?: string | null;
    cardHolder?: string | null;
    cardNumber?: string | null;
    cardExpiryDate?: string | null;
    cardLabel?: string | null;
    cardFingerprint?: string | null;
  };
}

/**
 * A payment to create. It names no website profile: the account's own always applies (an API key is
 * bound to one profile; an organization token is configured with one), never one from a request.
 */
export interface ProviderPaymentInput {
  amount: Cents;
  currency: string;
  description: string;
  sequenceType: SequenceType;
  customerId: string | null;
  mandateId: string | null;
  method: string | null;
  /** Not sent for recurring payments, which have no payer present. */
  redirectUrl: string | null;
  webhookUrl: string | null;
  /** Our payment id, for support look-ups at the provider. */
  reference: string;
}

export interface ProviderPayment {
  id: string;
  status: PaymentStatus;
  amount: Cents;
  currency: string;
  method: string | null;
  checkoutUrl: string | null;
  customerId: string | null;
  /** For a paid `first` payment: the mandate it created, which later recurring charges use. */
  mandateId: string | null;
  paidAt: Date | null;
  failureReason: string | null;
  failureCode: string | null;
  /** Money that went back to the payer so far (0 when none): refunds, and chargebacks by the bank. */
  amountRefunded: Cents;
  amountChargedBack: Cents;
  /** Our payment id as the provider keeps it (metadata), or null for a payment we did not make. */
  reference: string | null;
  createdAt: Date;
}

/** Finding a payment we may have created by our own id, when the answer to the create was lost. */
export interface PaymentLookup {
  /** Our payment id, as sent in ProviderPaymentInput.reference. */
  reference: string;
  /** The provider customer the payment was made for; narrows the search when known. */
  customerId: string | null;
  /** The payment cannot be older than this (our row's creation, minus a margin for clock skew). */
  createdAfter: Date;
}

/** Finding a customer we may have created by our own id, when the answer to the create was lost. */
export interface CustomerLookup {
  /** Our customer id, as sent in ProviderCustomerInput.reference. */
  reference: string;
  createdAfter: Date;
}

/** A customer as a provider lists it (what an import needs to find its subscriptions). */
export interface ProviderCustomerSummary {
  id: string;
  name: string | null;
  email: string | null;
}

/** One page of the provider's customers; `next` is the cursor of the following page, null after the last. */
export interface ProviderCustomerPage {
  customers: ProviderCustomerSummary[];
  next: string | null;
}

/** One page of the account's payments, newest first; `next` is the cursor of the following page, null after the last. */
export interface ProviderPaymentPage {
  payments: ProviderPayment[];
  next: string | null;
}

export type ProviderIntervalUnit = 'day' | 'week' | 'month';

/** The time between two charges: Mollie's "1 month", "14 days", "2 weeks" as { unit, count }. */
export interface ProviderInterval {
  unit: ProviderIntervalUnit;
  count: number;
}

export const PROVIDER_SUBSCRIPTION_STATUSES = ['pending', 'active', 'canceled', 'suspended', 'completed'] as const;
export type ProviderSubscriptionStatus = (typeof PROVIDER_SUBSCRIPTION_STATUSES)[number];

/**
 * A subscription the provider itself bills (Mollie's Subscriptions API), read to take it over. Dates are
 * `YYYY-MM-DD` as the provider keeps them.
 */
export interface ProviderSubscription {
  id: string;
  customerId: string;
  /** The mandate it charges on; null when the provider may pick any valid mandate of the customer. */
  mandateId: string | null;
  status: ProviderSubscriptionStatus;
  amount: Cents;
  currency: string;
  /**
   * The interval read from `intervalText`; null when it cannot be read (`intervalProblem` says why). Such a
   * subscription is still listed, so that one unreadable subscription does not hide the others: whoever takes
   * it over must refuse it with `intervalProblem`.
   */
  interval: ProviderInterval | null;
  /** The provider's own text, e.g. "1 month". */
  intervalText: string;
  intervalProblem: string | null;
  /** Total number of charges; null for a subscription without end. */
  times: number | null;
  /** Charges still to come; null for a subscription without end. */
  timesRemaining: number | null;
  startDate: string;
  /** The date of the next charge; null when none will follow (ended, canceled). */
  nextPaymentDate: string | null;
  description: string;
  metadata: unknown;
  /** When it was canceled; null when it was not. */
  canceledAt: Date | null;
}

export const REFUND_STATUSES = ['queued', 'pending', 'processing', 'refunded', 'failed', 'canceled'] as const;
/** A refund's status at the provider (Mollie's); `refunded` is money on its way to the payer, `failed`/`canceled` give it back. */
export type RefundStatus = (typeof REFUND_STATUSES)[number];

/** A refund to make of a paid payment. */
export interface ProviderRefundInput {
  amount: Cents;
  currency: string;
  description: string;
  /** Our refund id, kept at the provider (metadata) so a refund whose answer was lost can be found. */
  reference: string;
}

export interface ProviderRefund {
  id: string;
  paymentId: string;
  status: RefundStatus;
  amount: Cents;
  currency: string;
  /** Our refund id as the provider keeps it, or null for a refund we did not make (one made in its dashboard). */
  reference: string | null;
  createdAt: Date;
}

/** What the provider accepts for one payment method, in one currency. */
export interface MethodAmountLimit {
  method: string;
  minimum: Cents;
  /** null: the provider names no maximum. */
  maximum: Cents | null;
}

/** What the provider accepts of an amount, for payments of one sequence type in one currency. */
export interface PaymentLimits {
  /** Each enabled method that takes the currency, with its amounts in it; none: the account cannot charge the currency. */
  methods: MethodAmountLimit[];
  /** The currencies the account's enabled methods take (for telling a client which it may use). */
  currencies: string[];
}

/**
 * What the service needs of a payment provider. Every create carries an idempotency key that the
 * caller derives from its own row, so a retried call never creates a second object.
 */
export interface PaymentProvider {
  /** Its adapter's name (see adapter.ts). */
  readonly name: string;
  createCustomer(input: ProviderCustomerInput, idempotencyKey: string): Promise<{ id: string }>;
  /** The customer we created with this reference, or null when the provider has none. */
  findCustomerByReference(lookup: CustomerLookup): Promise<{ id: string } | null>;
  updateCustomer(customerId: string, input: ProviderCustomerInput): Promise<void>;
  createMandate(input: ProviderMandateInput, idempotencyKey: string): Promise<ProviderMandate>;
  getMandate(customerId: string, mandateId: string): Promise<ProviderMandate>;
  /** Every mandate of the customer, whatever its status. */
  listMandates(customerId: string): Promise<ProviderMandate[]>;
  revokeMandate(customerId: string, mandateId: string): Promise<void>;
  createPayment(input: ProviderPaymentInput, idempotencyKey: string): Promise<ProviderPayment>;
  getPayment(paymentId: string): Promise<ProviderPayment>;
  /** The payment we created with this reference, or null when the provider has none. */
  findPaymentByReference(lookup: PaymentLookup): Promise<ProviderPayment | null>;
  /** Cancels a payment that is still open (or a pending SEPA debit); answers it as it now is. */
  cancelPayment(paymentId: string): Promise<ProviderPayment>;
  /**
   * The ids of the payment methods the account has enabled (`ideal`, `creditcard`, …): for one-off payments, or with
   * `first` only those whose payment creates a mandate (a bank transfer, for one, cannot).
   */
  listMethods(sequenceType?: MethodSequenceType): Promise<string[]>;
  /**
   * The amounts each enabled method takes in `currency`, for payments of this sequence type: the provider's own answer
   * where it gives one, else the adapter's documented table. Reported only; what is refused is the caller's rule.
   */
  paymentLimits(sequenceType: SequenceType, currency: string): Promise<PaymentLimits>;
  /** One page of the account's customers, newest first; `cursor` is a page's `next`, none for the first page. */
  listCustomers(cursor?: string): Promise<ProviderCustomerPage>;
  /**
   * One page of the account's payments created at or after `since`, newest first; `cursor` is a page's `next`, none
   * for the first page. Read only (the ledger audit reads the provider's payments with it): it changes nothing.
   */
  listPayments(since: Date, cursor?: string): Promise<ProviderPaymentPage>;
  /** Every subscription the provider bills for the customer, whatever its status. */
  listSubscriptions(customerId: string): Promise<ProviderSubscription[]>;
  /**
   * Stops the provider's subscription, so that it charges no more; answers it as it now is. Safe to call again:
   * a subscription that is already canceled (or completed, so it charges no more either) is answered as it is.
   */
  cancelSubscription(customerId: string, subscriptionId: string): Promise<ProviderSubscription>;
  /** The payments the provider made for the subscription, newest first (to see one still under way). */
  listSubscriptionPayments(customerId: string, subscriptionId: string): Promise<ProviderPayment[]>;
  /** Refunds part or all of a paid payment; the key is derived from our refund row (`refund-<id>`). */
  createRefund(paymentId: string, input: ProviderRefundInput, idempotencyKey: string): Promise<ProviderRefund>;
  /** Every refund of the payment, newest first, as it is now. */
  listRefunds(paymentId: string): Promise<ProviderRefund[]>;
  /** The refund of the payment we made with this reference (our refund id), or null when the provider has none. */
  findRefundByReference(paymentId: string, reference: string): Promise<ProviderRefund | null>;
}

/** Payment statuses after which nothing but a refund or chargeback can follow. */
export const FINAL_PAYMENT_STATUSES: ReadonlySet<PaymentStatus> = new Set([
  'paid',
  'canceled',
  'expired',
  'failed',
  'refunded',
  'charged_back',
]);

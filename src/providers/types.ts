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

import createMollieClient, { SequenceType as MollieSequenceType, type MollieClient, type Page } from '@mollie/api-client';
import { cacheSecureContextsByCa } from './secureContexts';
import type { Logger } from '../../logger';
import { ProviderNotFoundError, ProviderOutageError, ProviderRejectedError } from '../errors';
import type {
  CustomerLookup,
  MethodAmountLimit,
  MethodSequenceType,
  PaymentLimits,
  PaymentLookup,
  PaymentProvider,
  ProviderCustomerInput,
  ProviderMandate,
  ProviderMandateInput,
  ProviderPayment,
  ProviderPaymentInput,
  ProviderRefund,
  ProviderRefundInput,
  ProviderCustomerPage,
  ProviderPaymentPage,
  ProviderSubscription,
  SequenceType,
} from '../types';
import { centsFromDecimalString } from '../../money';
import { currenciesOf, MOLLIE_METHOD_AMOUNTS } from './methodLimits';
import { providerErrorFrom, RETRY_AFTER_SECONDS } from './errors';
import { noteAnswers, type Answers } from './retryAfter';
import {
  CUSTOMER_FIELDS,
  customerParams,
  customerSummaryFrom,
  providerSubscriptionFrom,
  isLocalUrl,
  isSupportedMandate,
  MANDATE_FIELDS,
  mandateParams,
  PAYMENT_FIELDS,
  paymentParams,
  providerMandateFrom,
  providerPaymentFrom,
  referenceIn,
  REFUND_FIELDS,
  refundParams,
  providerRefundFrom,
  type FieldNames,
} from './transformers';
import { errorMessage } from '../../errors';
import { dateFromIso } from '../../time';

/**
 * An API key (`test_…`/`live_…`) is bound to one website profile and one mode. An organization
 * access token (`access_…`) is not: it needs the profile and the mode on every request.
 */
export type MollieCredentials =
  { kind: 'apiKey'; apiKey: string } | { kind: 'accessToken'; accessToken: string; profileId: string; testmode: boolean };

export interface MollieProviderOptions {
  credentials: MollieCredentials;
  /** Mollie's API root (`https://…/v2/`); null for Mollie's own. */
  apiUrl: string | null;
  logger: Logger;
  /** Called whenever a webhook URL is left out because it points at this machine (the caller warns once). */
  onLocalWebhookUrl: (webhookUrl: string) => void;
  /** The client has no timeout of its own; a hanging call must not hold our request forever. */
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 20_000;
/** Mollie's largest page: a search by reference reads as few pages as it can. */
const PAGE_SIZE = 250;

/** An error's first line for the log. A transport message may quote request headers: credentials are masked. */
function loggable(error: unknown): string {
  const text = errorMessage(error).split('\n')[0] ?? '';
  return text.replace(/Bearer\s+\S+/g, 'Bearer [redacted]').replace(/\b(test|live|access)_[A-Za-z0-9]{8,}/g, '$1_[redacted]');
}

/**
 * PaymentProvider on Mollie's API v2 through the official client: plumbing only. Shapes and the
 * status mapping are in transformers.ts, the error mapping in errors.ts. Every POST carries the
 * caller's idempotency key (the client would send a random one, and reuses ours on its own 5xx
 * retries), so a retried call never creates a second object at Mollie.
 */
export class MollieProvider implements PaymentProvider {
  readonly name = 'mollie' as const;
  private readonly client: MollieClient;

  constructor(private readonly options: MollieProviderOptions) {
    cacheSecureContextsByCa();
    const { credentials } = options;
    const apiEndpoint = options.apiUrl ?? undefined;
    this.client =
      credentials.kind === 'apiKey'
        ? createMollieClient({ apiKey: credentials.apiKey, apiEndpoint })
        : createMollieClient({
            accessToken: credentials.accessToken,
            parameterDefaults: { profileId: credentials.profileId, testmode: credentials.testmode },
            apiEndpoint,
          });
  }

  async createCustomer(input: ProviderCustomerInput, idempotencyKey: string): Promise<{ id: string }> {
    const customer = await this.call('create customer', CUSTOMER_FIELDS, () =>
      this.client.customers.create({ ...customerParams(input), idempotencyKey }),
    );
    return { id: customer.id };
  }

  async findCustomerByReference(lookup: CustomerLookup): Promise<{ id: string } | null> {
    const customer = await this.findNewestFirst(
      'find customer',
      () => this.client.customers.page({ limit: PAGE_SIZE }),
      (candidate) => referenceIn(candidate.metadata, 'customer_id') === lookup.reference,
      lookup.createdAfter,
    );
    return customer ? { id: customer.id } : null;
  }

  async updateCustomer(customerId: string, input: ProviderCustomerInput): Promise<void> {
    await this.call('update customer', CUSTOMER_FIELDS, () => this.client.customers.update(customerId, customerParams(input)));
  }

  async createMandate(input: ProviderMandateInput, idempotencyKey: string): Promise<ProviderMandate> {
    const mandate = await this.call('create mandate', MANDATE_FIELDS, () =>
      this.client.customerMandates.create({ ...mandateParams(input), idempotencyKey }),
    );
    return providerMandateFrom(mandate);
  }

  async getMandate(customerId: string, mandateId: string): Promise<ProviderMandate> {
    const mandate = await this.call('get mandate', {}, () => this.client.customerMandates.get(mandateId, { customerId }));
    return providerMandateFrom(mandate);
  }

  async listMandates(customerId: string): Promise<ProviderMandate[]> {
    const mandates: ProviderMandate[] = [];
    for await (const mandate of this.listed('list mandates', () => this.client.customerMandates.page({ customerId, limit: PAGE_SIZE }))) {
      // A mandate of a method we never charge on (PayPal) is of no use to us; it does not fail the list.
      if (isSupportedMandate(mandate)) mandates.push(providerMandateFrom(mandate));
    }
    return mandates;
  }

  async revokeMandate(customerId: string, mandateId: string): Promise<void> {
    // Revoking twice is harmless, but a DELETE still gets a key of ours rather than a random one.
    await this.call('revoke mandate', {}, () =>
      this.client.customerMandates.revoke(mandateId, { customerId, idempotencyKey: `revoke-${mandateId}` }),
    );
  }

  async createPayment(input: ProviderPaymentInput, idempotencyKey: string): Promise<ProviderPayment> {
    const sendWebhookUrl = input.webhookUrl !== null && !isLocalUrl(input.webhookUrl);
    if (input.webhookUrl !== null && !sendWebhookUrl) this.options.onLocalWebhookUrl(input.webhookUrl);
    const params = paymentParams(input, { sendWebhookUrl });
    const payment = await this.call('create payment', PAYMENT_FIELDS, () => this.client.payments.create({ ...params, idempotencyKey }));
    return providerPaymentFrom(payment);
  }

  async getPayment(paymentId: string): Promise<ProviderPayment> {
    const payment = await this.call('get payment', {}, () => this.client.payments.get(paymentId));
    return providerPaymentFrom(payment);
  }

  /** Mollie has no search by metadata: the customer's payments (or all) are read newest first. */
  async findPaymentByReference(lookup: PaymentLookup): Promise<ProviderPayment | null> {
    const { customerId } = lookup;
    const payment = await this.findNewestFirst(
      'find payment',
      () =>
        customerId ? this.client.customerPayments.page({ customerId, limit: PAGE_SIZE }) : this.client.payments.page({ limit: PAGE_SIZE }),
      (candidate) => referenceIn(candidate.metadata, 'payment_id') === lookup.reference,
      lookup.createdAfter,
    );
    return payment ? providerPaymentFrom(payment) : null;
  }

  async cancelPayment(paymentId: string): Promise<ProviderPayment> {
    // A key of ours rather than a random one: a retried cancel gets the first one's answer.
    const payment = await this.call('cancel payment', {}, () =>
      this.client.payments.cancel(paymentId, { idempotencyKey: `cancel-${paymentId}` }),
    );
    return providerPaymentFrom(payment);
  }

  async listMethods(sequenceType: MethodSequenceType = 'oneoff'): Promise<string[]> {
    // Mollie answers the methods that are active on the profile of the key; with `first`, only those that can create a
    // mandate. One-off is Mollie's default, so that list is asked for as it always was.
    const methods = await this.call('list methods', {}, () =>
      this.client.methods.list(sequenceType === 'first' ? { sequenceType: MollieSequenceType.first } : {}),
    );
    return methods.map((method) => method.id);
  }

  async paymentLimits(sequenceType: SequenceType, currency: string): Promise<PaymentLimits> {
    const listed = await this.call('list methods', {}, () =>
      this.client.methods.list(sequenceType === 'oneoff' ? {} : { sequenceType: MollieSequenceType[sequenceType] }),
    );
    const enabled = listed.map((method) => method.id);
    const currencies = currenciesOf(enabled);
    // The list states amounts in EUR; another currency is asked of each method, which refuses one it does not take.
    const methods: MethodAmountLimit[] = [];
    for (const method of listed) {
      if (currency === 'EUR') {
        methods.push(limitOf(method.id, method.minimumAmount, method.maximumAmount));
        continue;
      }
      try {
        const inCurrency = await this.call('get method', {}, () =>
          this.client.methods.get(method.id, { currency, sequenceType: MollieSequenceType[sequenceType] }),
        );
        methods.push(limitOf(method.id, inCurrency.minimumAmount, inCurrency.maximumAmount));
      } catch (error) {
        if (!(error instanceof ProviderRejectedError || error instanceof ProviderNotFoundError)) throw error;
      }
    }
    return { methods, currencies: methods.length && !currencies.includes(currency) ? [...currencies, currency].sort() : currencies };
  }

  async listCustomers(cursor?: string): Promise<ProviderCustomerPage> {
    const page = await this.call('list customers', {}, () =>
      this.client.customers.page({ limit: PAGE_SIZE, ...(cursor ? { from: cursor } : {}) }),
    );
    // Mollie's `next` link names the first customer of the following page (`from`): that is the cursor.
    return { customers: page.map(customerSummaryFrom), next: page.nextPageCursor ?? null };
  }

  /** Mollie lists newest first: the page stops at the first payment older than `since`, and so does the list. */
  async listPayments(since: Date, cursor?: string): Promise<ProviderPaymentPage> {
    const page = await this.call('list payments', {}, () =>
      this.client.payments.page({ limit: PAGE_SIZE, ...(cursor ? { from: cursor } : {}) }),
    );
    const payments: ProviderPayment[] = [];
    for (const payment of page) {
      if (dateFromIso(payment.createdAt) < since) return { payments, next: null };
      payments.push(providerPaymentFrom(payment));
    }
    return { payments, next: page.nextPageCursor ?? null };
  }

  async listSubscriptions(customerId: string): Promise<ProviderSubscription[]> {
    const subscriptions: ProviderSubscription[] = [];
    for await (const subscription of this.listed('list subscriptions', () =>
      this.client.customerSubscriptions.page({ customerId, limit: PAGE_SIZE }),
    )) {
      subscriptions.push(providerSubscriptionFrom(subscription));
    }
    return subscriptions;
  }

  /**
   * Mollie refuses to cancel a subscription that is already canceled (a 422, or a 404 for some): when the
   * subscription then reads as canceled (or completed: it charges no more either) that is the outcome wanted,
   * as after a cancel whose answer was lost. Any other refusal stands.
   */
  async cancelSubscription(customerId: string, subscriptionId: string): Promise<ProviderSubscription> {
    try {
      const canceled = await this.call('cancel subscription', {}, () =>
        this.client.customerSubscriptions.cancel(subscriptionId, { customerId, idempotencyKey: `cancel-${subscriptionId}` }),
      );
      return providerSubscriptionFrom(canceled);
    } catch (error) {
      if (!(error instanceof ProviderRejectedError) && !(error instanceof ProviderNotFoundError)) throw error;
      const current = await this.call('get subscription', {}, () => this.client.customerSubscriptions.get(subscriptionId, { customerId }));
      const subscription = providerSubscriptionFrom(current);
      if (subscription.status === 'canceled' || subscription.status === 'completed') return subscription;
      throw error;
    }
  }

  async listSubscriptionPayments(customerId: string, subscriptionId: string): Promise<ProviderPayment[]> {
    const payments: ProviderPayment[] = [];
    for await (const payment of this.listed('list subscription payments', () =>
      this.client.subscriptionPayments.page({ customerId, subscriptionId, limit: PAGE_SIZE }),
    )) {
      payments.push(providerPaymentFrom(payment));
    }
    return payments;
  }

  async createRefund(paymentId: string, input: ProviderRefundInput, idempotencyKey: string): Promise<ProviderRefund> {
    const refund = await this.call('create refund', REFUND_FIELDS, () =>
      this.client.paymentRefunds.create({ ...refundParams(paymentId, input), idempotencyKey }),
    );
    return providerRefundFrom(refund);
  }

  async listRefunds(paymentId: string): Promise<ProviderRefund[]> {
    const refunds: ProviderRefund[] = [];
    for await (const refund of this.listed('list refunds', () => this.client.paymentRefunds.page({ paymentId, limit: PAGE_SIZE }))) {
      refunds.push(providerRefundFrom(refund));
    }
    return refunds;
  }

  /** Mollie has no search by metadata: a payment has few refunds, all read. */
  async findRefundByReference(paymentId: string, reference: string): Promise<ProviderRefund | null> {
    return (await this.listRefunds(paymentId)).find((refund) => refund.reference === reference) ?? null;
  }

  /**
   * The first item of a newest-first list that matches, reading no further than `createdAfter`:
   * once an item is older, nothing after it can be the one.
   */
  private async findNewestFirst<T extends { createdAt: string }>(
    operation: string,
    firstPage: () => Promise<Page<T>>,
    matches: (item: T) => boolean,
    createdAfter: Date,
  ): Promise<T | null> {
    for await (const item of this.listed(operation, firstPage)) {
      if (dateFromIso(item.createdAt) < createdAfter) return null;
      if (matches(item)) return item;
    }
    return null;
  }

  /** The items of a paged list, one page at a time, each page a call of its own (timeout, error mapping). */
  private async *listed<T>(operation: string, firstPage: () => Promise<Page<T>>): AsyncGenerator<T, void, undefined> {
    let page: Page<T> | undefined = await this.call(operation, {}, firstPage);
    while (page) {
      yield* page;
      const nextPage: Page<T>['nextPage'] = page.nextPage;
      page = nextPage ? await this.call(operation, {}, nextPage) : undefined;
    }
  }

  /** Runs one client call under our timeout and turns its failure into one of our errors. */
  private async call<T>(operation: string, fields: FieldNames, run: () => Promise<T>): Promise<T> {
    const timeoutMs = this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new ProviderOutageError(`no answer within ${timeoutMs / 1000} s`, RETRY_AFTER_SECONDS, true)),
        timeoutMs,
      );
    });
    const answers: Answers = { retryAfterSeconds: null };
    try {
      // A late answer after the timeout is dropped, so the outcome is unknown; the idempotency key
      // makes the caller's retry safe.
      return await Promise.race([noteAnswers(answers, run), timeout]);
    } catch (error) {
      const mapped = providerErrorFrom(error, fields, answers.retryAfterSeconds);
      this.options.logger.warn('mollie request failed', {
        operation,
        error: loggable(error),
        code: mapped instanceof Error && 'code' in mapped ? mapped.code : undefined,
      });
      throw mapped;
    } finally {
      clearTimeout(timer);
    }
  }
}

/**
 * A method's amounts as Mollie answered them; one it left out comes from the documented table. A `maximumAmount`
 * of null is Mollie saying there is none.
 */
function limitOf(
  method: string,
  minimum: { value: string } | null | undefined,
  maximum: { value: string } | null | undefined,
): MethodAmountLimit {
  const documented = MOLLIE_METHOD_AMOUNTS[method];
  const min = (minimum && centsFromDecimalString(minimum.value)) ?? documented?.minimum ?? 1;
  if (maximum === null) return { method, minimum: min, maximum: null };
  const max = (maximum && centsFromDecimalString(maximum.value)) ?? documented?.maximum ?? null;
  return { method, minimum: min, maximum: max };
}

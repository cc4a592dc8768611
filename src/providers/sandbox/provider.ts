import type { Knex } from 'knex';
import { readRows } from '../../db/hotReads';
import { toDbDateTime, type Clock } from '../../time';
import type {
  CustomerLookup,
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
import type { Cents } from '../../money';
import { ProviderNotFoundError, ProviderRejectedError } from '../errors';
import { settleRecurringCharge } from './outcomes';
import { sandboxSubscriptions } from './subscriptions';
import {
  providerId,
  providerMandateOf,
  providerPaymentOf,
  providerRefundOf,
  type SandboxCustomerRow,
  type SandboxMandateRow,
  type SandboxPaymentRow,
  type SandboxRefundRow,
} from './rows';

/** Statuses in which a payment can still be canceled, as at a real provider (an open checkout, a pending debit). */
const CANCELABLE: ReadonlyArray<SandboxPaymentRow['status']> = ['open', 'pending'];
/** Customers per page of listCustomers, as Mollie's largest page. */
const CUSTOMER_PAGE = 250;
/** Payments per page of listPayments, as Mollie's largest page. */
const PAYMENT_PAGE = 250;

/**
 * An in-process provider that keeps its state in our database, so `npm start` works with no outside
 * account. Payers pick the outcome of one-off and first payments on its checkout page (a paid first
 * payment leaves a mandate, see checkoutCompletion.ts); recurring charges settle deterministically
 * (see outcomes.ts).
 */
/** What the sandbox accepts per method, in cents (the same numbers in every currency a method takes). */
export const SANDBOX_METHOD_AMOUNTS: Readonly<Record<string, { minimum: Cents; maximum: Cents | null }>> = {
  ideal: { minimum: 1, maximum: 5_000_000 }, // 50,000.00
  creditcard: { minimum: 1, maximum: 1_000_000 }, // 10,000.00
  directdebit: { minimum: 1, maximum: 100_000 }, // 1,000.00
  bancontact: { minimum: 2, maximum: 5_000_000 },
  eps: { minimum: 100, maximum: 5_000_000 },
  belfius: { minimum: 1, maximum: 5_000_000 },
  kbc: { minimum: 1, maximum: 5_000_000 },
  banktransfer: { minimum: 1, maximum: 100_000_000 }, // 1,000,000.00
};

/** The sandbox's cards take USD and GBP too; every other method EUR only. */
const SANDBOX_METHOD_CURRENCIES: Readonly<Record<string, readonly string[]>> = { creditcard: ['EUR', 'GBP', 'USD'] };

export class SandboxProvider implements PaymentProvider {
  readonly name = 'sandbox' as const;

  constructor(
    private readonly db: Knex,
    private readonly clock: Clock,
    private readonly accountId: string,
    private readonly publicUrl: string,
  ) {}

  private now(): string {
    return toDbDateTime(this.clock.now());
  }

  async createCustomer(input: ProviderCustomerInput, idempotencyKey: string): Promise<{ id: string }> {
    // Asked once per customer created: a hot read (see db/hotReads).
    const [existing] = await readRows<{ id: string }>(
      this.db,
      'select `id` from `sandbox_customers` where `account_id` = ? and `idempotency_key` = ? limit 1',
      [this.accountId, idempotencyKey],
    );
    if (existing) return { id: existing.id };
    const row: SandboxCustomerRow = {
      id: providerId('cst'),
      account_id: this.accountId,
      name: input.name,
      email: input.email,
      locale: input.locale,
      reference: input.reference,
      idempotency_key: idempotencyKey,
      created_at: this.now(),
    };
    await this.db('sandbox_customers').insert(row);
    return { id: row.id };
  }

  async findCustomerByReference(lookup: CustomerLookup): Promise<{ id: string } | null> {
    const found = await this.db('sandbox_customers')
      .where({ account_id: this.accountId, reference: lookup.reference })
      .andWhere('created_at', '>=', toDbDateTime(lookup.createdAfter))
      .orderBy([
        { column: 'created_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ])
      .first<{ id: string } | undefined>('id');
    return found ? { id: found.id } : null;
  }

  async updateCustomer(customerId: string, input: ProviderCustomerInput): Promise<void> {
    const updated = await this.db('sandbox_customers')
      .where({ account_id: this.accountId, id: customerId })
      .update({ name: input.name, email: input.email, locale: input.locale });
    if (!updated) throw new ProviderNotFoundError(`customer ${customerId}`);
  }

  async createMandate(input: ProviderMandateInput, idempotencyKey: string): Promise<ProviderMandate> {
    const existing = await this.db<SandboxMandateRow>('sandbox_mandates')
      .where({ account_id: this.accountId, idempotency_key: idempotencyKey })
      .first();
    if (existing) return providerMandateOf(existing);
    await this.requireCustomer(input.customerId);
    const row: SandboxMandateRow = {
      id: providerId('mdt'),
      account_id: this.accountId,
      customer_id: input.customerId,
      method: 'directdebit',
      // A real provider accepts a direct-debit mandate with a valid IBAN as valid at once.
      status: 'valid',
      consumer_name: input.consumerName,
      consumer_account: input.consumerAccount,
      consumer_bic: input.consumerBic,
      card_holder: null,
      card_number: null,
      card_label: null,
      card_expiry_date: null,
      mandate_reference: input.mandateReference,
      signature_date: input.signatureDate,
      idempotency_key: idempotencyKey,
      created_at: this.now(),
    };
    await this.db('sandbox_mandates').insert(row);
    return providerMandateOf(row);
  }

  async getMandate(customerId: string, mandateId: string): Promise<ProviderMandate> {
    const row = await this.db<SandboxMandateRow>('sandbox_mandates')
      .where({ account_id: this.accountId, customer_id: customerId, id: mandateId })
      .first();
    if (!row) throw new ProviderNotFoundError(`mandate ${mandateId}`);
    return providerMandateOf(row);
  }

  async listMandates(customerId: string): Promise<ProviderMandate[]> {
    await this.requireCustomer(customerId);
    const rows = await this.db<SandboxMandateRow>('sandbox_mandates')
      .where({ account_id: this.accountId, customer_id: customerId })
      .orderBy([
        { column: 'created_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ]);
    return rows.map(providerMandateOf);
  }

  async revokeMandate(customerId: string, mandateId: string): Promise<void> {
    const updated = await this.db('sandbox_mandates')
      .where({ account_id: this.accountId, customer_id: customerId, id: mandateId })
      .update({ status: 'invalid' });
    if (!updated) throw new ProviderNotFoundError(`mandate ${mandateId}`);
  }

  async createPayment(input: ProviderPaymentInput, idempotencyKey: string): Promise<ProviderPayment> {
    const existing = await this.db<SandboxPaymentRow>('sandbox_payments')
      .where({ account_id: this.accountId, idempotency_key: idempotencyKey })
      .first();
    if (existing) return providerPaymentOf(existing, this.publicUrl);
    if (input.customerId) await this.requireCustomer(input.customerId);
    const mandate = input.sequenceType === 'recurring' ? await this.requireValidMandate(input) : null;
    const now = this.now();
    const row: SandboxPaymentRow = {
      id: providerId('tr'),
      account_id: this.accountId,
      customer_id: input.customerId,
      mandate_id: input.mandateId,
      sequence_type: input.sequenceType,
      // Recurring charges have no payer at a checkout: like SEPA, they start pending.
      status: mandate ? 'pending' : 'open',
      amount: input.amount,
      currency: input.currency,
      description: input.description,
      // A recurring charge goes the way of its mandate: a direct debit, or the card on file.
      method: mandate ? mandate.method : input.method,
      redirect_url: input.redirectUrl,
      failure_reason: null,
      failure_code: null,
      reference: input.reference,
      amount_refunded: 0,
      amount_charged_back: 0,
      idempotency_key: idempotencyKey,
      paid_at: null,
      created_at: now,
      updated_at: now,
    };
    await this.db('sandbox_payments').insert(row);
    return providerPaymentOf(row, this.publicUrl);
  }

  async getPayment(paymentId: string): Promise<ProviderPayment> {
    return this.current(await this.requirePayment(paymentId));
  }

  async findPaymentByReference(lookup: PaymentLookup): Promise<ProviderPayment | null> {
    const row = await this.db<SandboxPaymentRow>('sandbox_payments')
      .where({ account_id: this.accountId, reference: lookup.reference, ...(lookup.customerId ? { customer_id: lookup.customerId } : {}) })
      .andWhere('created_at', '>=', toDbDateTime(lookup.createdAfter))
      .orderBy([
        { column: 'created_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ])
      .first();
    return row ? this.current(row) : null;
  }

  /**
   * What a provider's test profile with the usual methods enabled offers (giropay and sofort are gone there). A first
   * payment must create a mandate, which a bank transfer cannot (Mollie lists it only for one-off payments).
   */
  async listMethods(sequenceType: MethodSequenceType = 'oneoff'): Promise<string[]> {
    const methods = ['ideal', 'creditcard', 'bancontact', 'eps', 'belfius', 'kbc', 'banktransfer'];
    return sequenceType === 'first' ? methods.filter((method) => method !== 'banktransfer') : methods;
  }

  /**
   * The sandbox's own amounts per method (SANDBOX_METHOD_AMOUNTS), EUR for every method and also USD and GBP by card, as
   * a provider with multicurrency cards answers them.
   */
  async paymentLimits(sequenceType: SequenceType, currency: string): Promise<PaymentLimits> {
    const enabled = sequenceType === 'recurring' ? ['directdebit', 'creditcard'] : await this.listMethods(sequenceType);
    const takes = (method: string) => (SANDBOX_METHOD_CURRENCIES[method] ?? ['EUR']).includes(currency);
    return {
      methods: enabled.filter(takes).map((method) => ({ method, ...(SANDBOX_METHOD_AMOUNTS[method] ?? { minimum: 1, maximum: null }) })),
      currencies: [...new Set(enabled.flatMap((method) => SANDBOX_METHOD_CURRENCIES[method] ?? ['EUR']))].sort(),
    };
  }

  async cancelPayment(paymentId: string): Promise<ProviderPayment> {
    // Conditional: a payer finishing the checkout at the same moment wins or loses as a whole.
    const canceled = await this.db('sandbox_payments')
      .where({ account_id: this.accountId, id: paymentId })
      .whereIn('status', CANCELABLE)
      .update({ status: 'canceled', updated_at: this.now() });
    const row = await this.requirePayment(paymentId);
    // A real provider answers 422 for a payment that can no longer be canceled.
    if (!canceled) throw new ProviderRejectedError(`The payment cannot be canceled: it is ${row.status}`, null);
    return providerPaymentOf(row, this.publicUrl);
  }

  /** Newest first; the cursor is the offset of the next page (opaque to callers). */
  async listCustomers(cursor?: string): Promise<ProviderCustomerPage> {
    const offset = cursor && /^\d+$/.test(cursor) ? Number(cursor) : 0;
    const rows = await this.db('sandbox_customers')
      .where({ account_id: this.accountId })
      .orderBy([
        { column: 'created_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ])
      .offset(offset)
      .limit(CUSTOMER_PAGE + 1)
      .select<Array<{ id: string; name: string | null; email: string | null }>>('id', 'name', 'email');
    const page = rows.slice(0, CUSTOMER_PAGE);
    return {
      customers: page.map((row) => ({ id: row.id, name: row.name, email: row.email })),
      next: rows.length > CUSTOMER_PAGE ? String(offset + CUSTOMER_PAGE) : null,
    };
  }

  /**
   * Newest first, `since` inclusive; the cursor is the offset of the next page. Read as stored: a pending recurring
   * charge is not settled by being listed (getPayment does that), so a reader changes no outcome.
   */
  async listPayments(since: Date, cursor?: string): Promise<ProviderPaymentPage> {
    const offset = cursor && /^\d+$/.test(cursor) ? Number(cursor) : 0;
    const rows = await this.db<SandboxPaymentRow>('sandbox_payments')
      .where({ account_id: this.accountId })
      .andWhere('created_at', '>=', toDbDateTime(since))
      .orderBy([
        { column: 'created_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ])
      .offset(offset)
      .limit(PAYMENT_PAGE + 1);
    return {
      payments: rows.slice(0, PAYMENT_PAGE).map((row) => providerPaymentOf(row, this.publicUrl)),
      next: rows.length > PAYMENT_PAGE ? String(offset + PAYMENT_PAGE) : null,
    };
  }

  /** The sandbox bills no subscriptions itself: only those a test put in (sandbox/subscriptions.ts). */
  async listSubscriptions(customerId: string): Promise<ProviderSubscription[]> {
    return sandboxSubscriptions.list(this.accountId, customerId);
  }

  async cancelSubscription(customerId: string, subscriptionId: string): Promise<ProviderSubscription> {
    const held = sandboxSubscriptions.find(this.accountId, customerId, subscriptionId);
    if (!held) throw new ProviderNotFoundError(`subscription ${subscriptionId}`);
    const { subscription } = held;
    // Canceled or completed already: it charges no more, which is what was asked.
    if (subscription.status !== 'canceled' && subscription.status !== 'completed') {
      subscription.status = 'canceled';
      subscription.canceledAt = this.clock.now();
      subscription.nextPaymentDate = null;
    }
    return { ...subscription };
  }

  async listSubscriptionPayments(customerId: string, subscriptionId: string): Promise<ProviderPayment[]> {
    const held = sandboxSubscriptions.find(this.accountId, customerId, subscriptionId);
    if (!held) throw new ProviderNotFoundError(`subscription ${subscriptionId}`);
    return [...held.payments];
  }

  /**
   * A refund of a paid payment, `pending` until it is first looked at (then `refunded`, as a recurring charge
   * settles); refused (422) beyond what was paid minus what went back, as Mollie does.
   */
  async createRefund(paymentId: string, input: ProviderRefundInput, idempotencyKey: string): Promise<ProviderRefund> {
    const existing = await this.db<SandboxRefundRow>('sandbox_refunds')
      .where({ account_id: this.accountId, idempotency_key: idempotencyKey })
      .first();
    if (existing) return providerRefundOf(existing);
    const payment = await this.requirePayment(paymentId);
    if (payment.status !== 'paid') throw new ProviderRejectedError(`The payment cannot be refunded: it is ${payment.status}`, null);
    const [taken] = await this.db('sandbox_refunds')
      .where({ account_id: this.accountId, payment_id: paymentId })
      .whereNotIn('status', ['failed', 'canceled'])
      .sum<Array<{ total: number | string | null }>>({ total: 'amount' });
    const left = Number(payment.amount) - Number(taken?.total ?? 0) - Number(payment.amount_charged_back);
    if (input.amount > left) throw new ProviderRejectedError('The amount is higher than the amount that can be refunded', 'amount');
    const row: SandboxRefundRow = {
      id: providerId('re'),
      account_id: this.accountId,
      payment_id: paymentId,
      amount: input.amount,
      currency: input.currency,
      description: input.description,
      status: 'pending',
      reference: input.reference,
      idempotency_key: idempotencyKey,
      created_at: this.now(),
    };
    await this.db('sandbox_refunds').insert(row);
    return providerRefundOf(row);
  }

  async listRefunds(paymentId: string): Promise<ProviderRefund[]> {
    await this.requirePayment(paymentId);
    const rows = await this.db<SandboxRefundRow>('sandbox_refunds')
      .where({ account_id: this.accountId, payment_id: paymentId })
      .orderBy([
        { column: 'created_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ]);
    const pending = rows.filter((row) => row.status === 'pending');
    if (pending.length === 0) return rows.map(providerRefundOf);
    // Pending refunds settle when first looked at; the payment then tells what went back (refunded when all of it).
    await this.db('sandbox_refunds')
      .whereIn(
        'id',
        pending.map((row) => row.id),
      )
      .update({ status: 'refunded' });
    const settled = rows.map((row) => (row.status === 'pending' ? { ...row, status: 'refunded' as const } : row));
    const refunded = settled.filter((row) => row.status === 'refunded').reduce((sum, row) => sum + Number(row.amount), 0);
    const payment = await this.requirePayment(paymentId);
    await this.db('sandbox_payments')
      .where({ account_id: this.accountId, id: paymentId })
      .update({
        amount_refunded: refunded,
        ...(payment.status === 'paid' && refunded >= Number(payment.amount) ? { status: 'refunded' } : {}),
        updated_at: this.now(),
      });
    return settled.map(providerRefundOf);
  }

  async findRefundByReference(paymentId: string, reference: string): Promise<ProviderRefund | null> {
    return (await this.listRefunds(paymentId)).find((refund) => refund.reference === reference) ?? null;
  }

  /** The payment as it is now: a pending recurring charge settles when it is first looked at. */
  private async current(row: SandboxPaymentRow): Promise<ProviderPayment> {
    if (row.sequence_type !== 'recurring' || row.status !== 'pending') return providerPaymentOf(row, this.publicUrl);
    const now = this.now();
    const outcome = settleRecurringCharge(Number(row.amount), row.method === 'creditcard' ? 'creditcard' : 'directdebit');
    const settled: SandboxPaymentRow = { ...row, ...outcome, paid_at: outcome.status === 'paid' ? now : null, updated_at: now };
    await this.db('sandbox_payments').where({ id: row.id }).update({
      status: settled.status,
      failure_reason: settled.failure_reason,
      failure_code: settled.failure_code,
      paid_at: settled.paid_at,
      updated_at: settled.updated_at,
    });
    return providerPaymentOf(settled, this.publicUrl);
  }

  private async requirePayment(paymentId: string): Promise<SandboxPaymentRow> {
    const row = await this.db<SandboxPaymentRow>('sandbox_payments').where({ account_id: this.accountId, id: paymentId }).first();
    if (!row) throw new ProviderNotFoundError(`payment ${paymentId}`);
    return row;
  }

  private async requireCustomer(customerId: string): Promise<void> {
    const customer = await this.db('sandbox_customers').where({ account_id: this.accountId, id: customerId }).first('id');
    if (!customer) throw new ProviderNotFoundError(`customer ${customerId}`);
  }

  private async requireValidMandate(input: ProviderPaymentInput): Promise<SandboxMandateRow> {
    if (!input.customerId || !input.mandateId) {
      throw new ProviderRejectedError('A recurring payment needs a customer and a mandate', 'provider_mandate_id');
    }
    const mandate = await this.db<SandboxMandateRow>('sandbox_mandates')
      .where({ account_id: this.accountId, customer_id: input.customerId, id: input.mandateId })
      .first();
    if (!mandate || mandate.status !== 'valid') throw new ProviderRejectedError('The mandate is not valid', 'provider_mandate_id');
    return mandate;
  }
}

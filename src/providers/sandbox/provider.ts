import type { Knex } from 'knex';
import { randomBase62 } from '../../ids';
import { fromDbDateTime, toDbDateTime, type Clock } from '../../time';
import type {
  PaymentProvider,
  PaymentStatus,
  ProviderCustomerInput,
  ProviderMandate,
  ProviderMandateInput,
  ProviderPayment,
  ProviderPaymentInput,
} from '../types';
import { ProviderNotFoundError, ProviderRejectedError } from '../errors';
import { settleRecurringCharge } from './outcomes';

export interface SandboxPaymentRow {
  id: string;
  account_id: string;
  customer_id: string | null;
  mandate_id: string | null;
  sequence_type: string;
  status: PaymentStatus;
  amount: number;
  currency: string;
  description: string;
  method: string | null;
  redirect_url: string | null;
  failure_reason: string | null;
  failure_code: string | null;
  idempotency_key: string | null;
  paid_at: string | null;
  created_at: string;
  updated_at: string;
}

interface SandboxMandateRow {
  id: string;
  account_id: string;
  customer_id: string;
  method: 'directdebit' | 'creditcard';
  status: 'valid' | 'invalid' | 'pending';
  consumer_name: string | null;
  consumer_account: string | null;
  consumer_bic: string | null;
  mandate_reference: string | null;
  signature_date: string | null;
  idempotency_key: string | null;
  created_at: string;
}

/** Provider-shaped ids: `cst_`, `mdt_`, `tr_` plus 10 base62 characters, as Mollie's look. */
const providerId = (prefix: 'cst' | 'mdt' | 'tr') => `${prefix}_${randomBase62(10)}`;

/**
 * An in-process provider that keeps its state in our database, so `npm start` works with no outside
 * account. Payers pick the outcome of one-off and first payments on its checkout page; recurring
 * charges settle deterministically (see outcomes.ts).
 */
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
    const existing = await this.db('sandbox_customers')
      .where({ account_id: this.accountId, idempotency_key: idempotencyKey })
      .first<{ id: string } | undefined>('id');
    if (existing) return { id: existing.id };
    const id = providerId('cst');
    await this.db('sandbox_customers').insert({
      id,
      account_id: this.accountId,
      name: input.name,
      email: input.email,
      locale: input.locale,
      idempotency_key: idempotencyKey,
      created_at: this.now(),
    });
    return { id };
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
    if (existing) return toMandate(existing);
    await this.requireCustomer(input.customerId);
    const row: SandboxMandateRow = {
      id: providerId('mdt'),
      account_id: this.accountId,
      customer_id: input.customerId,
      method: 'directdebit',
      // Mollie accepts a direct-debit mandate with a valid IBAN as valid at once.
      status: 'valid',
      consumer_name: input.consumerName,
      consumer_account: input.consumerAccount,
      consumer_bic: input.consumerBic,
      mandate_reference: input.mandateReference,
      signature_date: input.signatureDate,
      idempotency_key: idempotencyKey,
      created_at: this.now(),
    };
    await this.db('sandbox_mandates').insert(row);
    return toMandate(row);
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
    if (existing) return this.toPayment(existing);
    if (input.customerId) await this.requireCustomer(input.customerId);
    if (input.sequenceType === 'recurring') {
      if (!input.customerId || !input.mandateId) {
        throw new ProviderRejectedError('A recurring payment needs a customer and a mandate', 'provider_mandate_id');
      }
      const mandate = await this.db<SandboxMandateRow>('sandbox_mandates')
        .where({ account_id: this.accountId, customer_id: input.customerId, id: input.mandateId })
        .first();
      if (!mandate || mandate.status !== 'valid') throw new ProviderRejectedError('The mandate is not valid', 'provider_mandate_id');
    }
    const now = this.now();
    const row: SandboxPaymentRow = {
      id: providerId('tr'),
      account_id: this.accountId,
      customer_id: input.customerId,
      mandate_id: input.mandateId,
      sequence_type: input.sequenceType,
      // Recurring charges have no payer at a checkout: like SEPA, they start pending.
      status: input.sequenceType === 'recurring' ? 'pending' : 'open',
      amount: input.amount,
      currency: input.currency,
      description: input.description,
      method: input.sequenceType === 'recurring' ? 'directdebit' : input.method,
      redirect_url: input.redirectUrl,
      failure_reason: null,
      failure_code: null,
      idempotency_key: idempotencyKey,
      paid_at: null,
      created_at: now,
      updated_at: now,
    };
    await this.db('sandbox_payments').insert(row);
    return this.toPayment(row);
  }

  async getPayment(paymentId: string): Promise<ProviderPayment> {
    const row = await this.db<SandboxPaymentRow>('sandbox_payments').where({ account_id: this.accountId, id: paymentId }).first();
    if (!row) throw new ProviderNotFoundError(`payment ${paymentId}`);
    if (row.sequence_type === 'recurring' && row.status === 'pending') {
      const settled = { ...row, ...settleRecurringCharge(row.amount), updated_at: this.now() };
      if (settled.status === 'paid') settled.paid_at = this.now();
      await this.db('sandbox_payments').where({ id: row.id }).update({
        status: settled.status,
        failure_reason: settled.failure_reason,
        failure_code: settled.failure_code,
        paid_at: settled.paid_at,
        updated_at: settled.updated_at,
      });
      return this.toPayment(settled);
    }
    return this.toPayment(row);
  }

  private async requireCustomer(customerId: string): Promise<void> {
    const customer = await this.db('sandbox_customers').where({ account_id: this.accountId, id: customerId }).first('id');
    if (!customer) throw new ProviderNotFoundError(`customer ${customerId}`);
  }

  private toPayment(row: SandboxPaymentRow): ProviderPayment {
    return {
      id: row.id,
      status: row.status,
      amount: Number(row.amount),
      currency: row.currency,
      method: row.method,
      checkoutUrl: row.status === 'open' && row.sequence_type !== 'recurring' ? `${this.publicUrl}/sandbox/checkout/${row.id}` : null,
      customerId: row.customer_id,
      mandateId: row.mandate_id,
      paidAt: row.paid_at ? fromDbDateTime(row.paid_at) : null,
      failureReason: row.failure_reason,
      failureCode: row.failure_code,
    };
  }
}

function toMandate(row: SandboxMandateRow): ProviderMandate {
  return {
    id: row.id,
    method: row.method,
    status: row.status,
    mandateReference: row.mandate_reference,
    signatureDate: row.signature_date ? row.signature_date.slice(0, 10) : null,
    details: { consumerName: row.consumer_name, consumerAccount: row.consumer_account, consumerBic: row.consumer_bic },
  };
}

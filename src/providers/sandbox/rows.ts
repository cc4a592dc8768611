import { randomBase62 } from '../../ids';
import { fromDbDateTime } from '../../time';
import type { MandateMethod, MandateStatus, PaymentStatus, ProviderMandate, ProviderPayment, ProviderRefund, RefundStatus } from '../types';

/** The sandbox's own tables (what a real provider would hold on its side) and how they read as provider objects. */

export interface SandboxCustomerRow {
  id: string;
  account_id: string;
  name: string;
  email: string;
  locale: string | null;
  /** Our customer id (ProviderCustomerInput.reference). */
  reference: string | null;
  idempotency_key: string | null;
  created_at: string;
}

export interface SandboxMandateRow {
  id: string;
  account_id: string;
  customer_id: string;
  method: MandateMethod;
  status: MandateStatus;
  consumer_name: string | null;
  consumer_account: string | null;
  consumer_bic: string | null;
  card_holder: string | null;
  card_number: string | null;
  card_label: string | null;
  card_expiry_date: string | null;
  mandate_reference: string | null;
  signature_date: string | null;
  idempotency_key: string | null;
  created_at: string;
}

export interface SandboxPaymentRow {
  id: string;
  account_id: string;
  customer_id: string | null;
  /** For a recurring charge the mandate it is on; for a paid first payment the mandate it created. */
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
  /** Our payment id (ProviderPaymentInput.reference). */
  reference: string | null;
  amount_refunded: number;
  amount_charged_back: number;
  idempotency_key: string | null;
  paid_at: string | null;
  created_at: string;
  updated_at: string;
}

/** Provider-shaped ids: `cst_`, `mdt_`, `tr_` plus 10 base62 characters, as a real provider's look. */
export const providerId = (prefix: 'cst' | 'mdt' | 'tr' | 're') => `${prefix}_${randomBase62(10)}`;

/** DATE columns come back as `YYYY-MM-DD` (MySQL with dateStrings) or as stored (SQLite). */
const dateOnly = (value: string | null) => (value ? value.slice(0, 10) : null);

export function providerMandateOf(row: SandboxMandateRow): ProviderMandate {
  const details: ProviderMandate['details'] =
    row.method === 'creditcard'
      ? {
          cardHolder: row.card_holder,
          cardNumber: row.card_number,
          cardLabel: row.card_label,
          cardExpiryDate: dateOnly(row.card_expiry_date),
        }
      : { consumerName: row.consumer_name, consumerAccount: row.consumer_account, consumerBic: row.consumer_bic };
  return {
    id: row.id,
    method: row.method,
    status: row.status,
    mandateReference: row.mandate_reference,
    signatureDate: dateOnly(row.signature_date),
    details,
  };
}

export function providerPaymentOf(row: SandboxPaymentRow, publicUrl: string): ProviderPayment {
  return {
    id: row.id,
    status: row.status,
    amount: Number(row.amount),
    currency: row.currency,
    method: row.method,
    checkoutUrl: row.status === 'open' && row.sequence_type !== 'recurring' ? `${publicUrl}/sandbox/checkout/${row.id}` : null,
    customerId: row.customer_id,
    mandateId: row.mandate_id,
    paidAt: row.paid_at ? fromDbDateTime(row.paid_at) : null,
    failureReason: row.failure_reason,
    failureCode: row.failure_code,
    amountRefunded: Number(row.amount_refunded),
    amountChargedBack: Number(row.amount_charged_back),
    reference: row.reference,
    createdAt: fromDbDateTime(row.created_at),
  };
}

export interface SandboxRefundRow {
  id: string;
  account_id: string;
  payment_id: string;
  amount: number;
  currency: string;
  description: string;
  status: RefundStatus;
  /** Our refund id (ProviderRefundInput.reference). */
  reference: string | null;
  idempotency_key: string | null;
  created_at: string;
}

export function providerRefundOf(row: SandboxRefundRow): ProviderRefund {
  return {
    id: row.id,
    paymentId: row.payment_id,
    status: row.status,
    amount: Number(row.amount),
    currency: row.currency,
    reference: row.reference,
    createdAt: fromDbDateTime(row.created_at),
  };
}

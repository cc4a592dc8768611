import type { Knex } from 'knex';
import { tenantTable } from '../../db/tenantTable';
import type { PaymentStatus, SequenceType } from '../../providers/types';

export interface PaymentRow {
  id: string;
  account_id: string;
  customer_id: string | null;
  subscription_id: string | null;
  provider_payment_id: string | null;
  provider_customer_id: string | null;
  provider_mandate_id: string | null;
  provider_profile_id: string | null;
  sequence_type: SequenceType;
  status: PaymentStatus;
  amount: number;
  currency: string;
  description: string;
  method: string | null;
  redirect_url: string | null;
  webhook_url: string | null;
  checkout_url: string | null;
  failure_reason: string | null;
  failure_code: string | null;
  paid_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface PaymentStatusChangeRow {
  account_id: string;
  payment_id: string;
  status: PaymentStatus;
  changed_at: string;
}

const shared = tenantTable<PaymentRow>('payments');
const { table } = shared;

export const paymentsRepository = {
  ...shared,

  insert: (db: Knex, row: PaymentRow) => table(db).insert(row),

  findByProviderPaymentId: (db: Knex, accountId: string, providerPaymentId: string) =>
    table(db).where({ account_id: accountId, provider_payment_id: providerPaymentId }).first(),

  delete: (db: Knex, accountId: string, id: string) => table(db).where({ account_id: accountId, id }).delete(),

  update: (db: Knex, accountId: string, id: string, changes: Partial<PaymentRow>) =>
    table(db).where({ account_id: accountId, id }).update(changes),

  /** Moves the status only if it is still `from`: a concurrent update of the same payment wins once. */
  updateStatusIfUnchanged: (db: Knex, accountId: string, id: string, from: PaymentStatus, changes: Partial<PaymentRow>) =>
    table(db).where({ account_id: accountId, id, status: from }).update(changes),

  recordStatus: (db: Knex, row: PaymentStatusChangeRow) => db('payment_status_changes').insert(row),

  statusHistory: (db: Knex, accountId: string, paymentId: string) =>
    db<PaymentStatusChangeRow>('payment_status_changes')
      .where({ account_id: accountId, payment_id: paymentId })
      .orderBy('seq', 'asc')
      .select('status', 'changed_at'),
};

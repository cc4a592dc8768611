import type { Knex } from 'knex';
import { tenantTable } from '../../db/tenantTable';
import type { SequenceType } from '../../providers/types';
import type { PaymentPurpose } from './purposes';
import type { PaymentRowStatus } from './transitions';

export interface PaymentRow {
  id: string;
  account_id: string;
  customer_id: string | null;
  subscription_id: string | null;
  purpose: PaymentPurpose;
  purpose_id: string | null;
  /** What the payment is made for, once (`charge-<id>`); unique per account. Null for payments made on request. */
  origin_key: string | null;
  provider_payment_id: string | null;
  provider_customer_id: string | null;
  provider_mandate_id: string | null;
  provider_profile_id: string | null;
  sequence_type: SequenceType;
  status: PaymentRowStatus;
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
  status: PaymentRowStatus;
  changed_at: string;
}

const shared = tenantTable<PaymentRow>('payments');
const { table } = shared;

export const paymentsRepository = {
  ...shared,

  insert: (db: Knex, row: PaymentRow) => table(db).insert(row),

  findByOriginKey: (db: Knex, accountId: string, originKey: string) => table(db).where({ account_id: accountId, origin_key: originKey }).first(),

  findByProviderPaymentId: (db: Knex, accountId: string, providerPaymentId: string) =>
    table(db).where({ account_id: accountId, provider_payment_id: providerPaymentId }).first(),

  /** Moves the status only if it is still `from`: of two concurrent changes of one payment, one wins. */
  updateStatusIfUnchanged: (db: Knex, accountId: string, id: string, from: PaymentRowStatus, changes: Partial<PaymentRow>) =>
    table(db).where({ account_id: accountId, id, status: from }).update(changes),

  /** Marks an attempt on a row still `creating`, so the job that finishes such rows goes to the others first. */
  touchCreating: (db: Knex, accountId: string, id: string, now: string) =>
    table(db).where({ account_id: accountId, id, status: 'creating' }).update({ updated_at: now }),

  /** Rows left `creating` (an answer lost, a crash) and untouched since `before`, oldest first, across accounts. */
  stalledCreations: (db: Knex, before: string, limit: number) =>
    table(db).where('status', 'creating').andWhere('updated_at', '<=', before).orderBy('updated_at').limit(limit),

  recordStatus: (db: Knex, row: PaymentStatusChangeRow) => db('payment_status_changes').insert(row),

  statusHistory: (db: Knex, accountId: string, paymentId: string) =>
    db<PaymentStatusChangeRow>('payment_status_changes')
      .where({ account_id: accountId, payment_id: paymentId })
      .orderBy('seq', 'asc')
      .select('status', 'changed_at'),
};

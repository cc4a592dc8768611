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
  /** `link-<id>` / `order-<id>` while the payment is under way (unique per account: one at a time), null once settled. */
  in_progress_key?: string | null;
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
  /** Cents the payer's bank took back, as the provider reported (0: none); a new row starts at the column's 0. */
  amount_charged_back?: number;
  paid_at: string | null;
  /** While `creating`: when the next attempt at the provider may start (backoff, a rate limit's Retry-After). */
  next_attempt_at: string | null;
  /** Attempts at the provider that did not settle the creation (lost answers, rate limits). */
  create_attempts: number;
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

  /**
   * Whether the account has a payment a provider payment unknown here could belong to: one still
   * `creating`, or one given up as `rejected` that reconciliation is still to look for.
   */
  anyAwaitingItsProviderPayment: async (db: Knex, accountId: string): Promise<boolean> =>
    (await table(db).where({ account_id: accountId, status: 'creating' }).first('id')) !== undefined ||
    (await table(db).where({ account_id: accountId, status: 'rejected' }).whereNotNull('next_attempt_at').first('id')) !== undefined,

  findInProgress: (db: Knex, accountId: string, inProgressKey: string) => table(db).where({ account_id: accountId, in_progress_key: inProgressKey }).first(),

  /** The payments of a store order (purpose `order`) in these statuses, newest first. */
  ofOrderInStatuses: (db: Knex, accountId: string, orderId: string, statuses: readonly PaymentRowStatus[]) =>
    table(db)
      .where({ account_id: accountId, purpose: 'order', purpose_id: orderId })
      .whereIn('status', statuses)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc'),

  /** The latest payments of a store order, newest first. */
  latestOfOrder: (db: Knex, accountId: string, orderId: string, limit: number) =>
    table(db).where({ account_id: accountId, purpose: 'order', purpose_id: orderId }).orderBy('created_at', 'desc').limit(limit),

  findByProviderPaymentId: (db: Knex, accountId: string, providerPaymentId: string) =>
    table(db).where({ account_id: accountId, provider_payment_id: providerPaymentId }).first(),

  /** Moves the status only if it is still `from`: of two concurrent changes of one payment, one wins. */
  updateStatusIfUnchanged: (db: Knex, accountId: string, id: string, from: PaymentRowStatus, changes: Partial<PaymentRow>) =>
    table(db).where({ account_id: accountId, id, status: from }).update(changes),

  /** Records an attempt that did not settle a row still `creating`, and when the next one may start. */
  keepCreating: (db: Knex, accountId: string, id: string, attempt: { attempts: number; nextAttemptAt: string; now: string }) =>
    table(db)
      .where({ account_id: accountId, id, status: 'creating' })
      .update({ create_attempts: attempt.attempts, next_attempt_at: attempt.nextAttemptAt, updated_at: attempt.now }),

  /** Rows left `creating` (an answer lost, a rate limit, a crash) whose next attempt is due, longest waiting first, across accounts. */
  stalledCreations: (db: Knex, now: string, limit: number) =>
    table(db).where('status', 'creating').andWhere('next_attempt_at', '<=', now).orderBy('next_attempt_at').limit(limit),

  recordStatus: (db: Knex, row: PaymentStatusChangeRow) => db('payment_status_changes').insert(row),

  statusHistory: (db: Knex, accountId: string, paymentId: string) =>
    db<PaymentStatusChangeRow>('payment_status_changes')
      .where({ account_id: accountId, payment_id: paymentId })
      .orderBy('seq', 'asc')
      .select('status', 'changed_at'),
};

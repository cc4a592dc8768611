import type { Knex } from 'knex';
import { tenantTable } from '../../db/tenantTable';
import type { IntervalUnit } from '../../time/calendar';

export const SUBSCRIPTION_STATUSES = ['draft', 'active', 'paused', 'cancelled', 'completed'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

export type RuleInterval = IntervalUnit;

export interface SubscriptionRow {
  id: string;
  account_id: string;
  customer_id: string;
  name: string;
  status: SubscriptionStatus;
  start_date: string; // Y-m-d
  currency: string;
  provider_mandate_id: string;
  provider_profile_id: string;
  next_payment_at: string | null; // Y-m-d, the next date actually charged (pauses skipped)
  next_amount: number | null; // cents
  last_payment_created_at: string | null; // UTC date-time
  resume_at: string | null;
  /** The next charge the billing planner writes, and its scheduled date (null when there is none). */
  next_charge_number: number;
  next_charge_date: string | null;
  cancel_at: string | null;
  workflow_id: string | null;
  docstyle_id: string | null;
  /** `order-<order id>-<interval>` for a subscription a paid store order made; unique per account. */
  origin_key?: string | null;
  /** The store order it was made from: its later charges become renewal orders of it. */
  origin_order_id?: string | null;
  created_at: string;
  updated_at: string;
}

export interface SubscriptionRuleRow {
  id: string;
  account_id: string;
  subscription_id: string;
  position: number;
  amount: number; // cents
  currency: string;
  interval: RuleInterval;
  interval_amount: number;
  day: number;
  times: number | null; // null: until cancelled
  times_done: number;
}

export interface InvoiceRuleRow {
  id: string;
  account_id: string;
  subscription_rule_id: string;
  position: number;
  quantity: number;
  description: string;
  amount: number; // cents
  vat: string | null;
  ledger_account_id: string | null;
}

const shared = tenantTable<SubscriptionRow>('subscriptions');

export const subscriptionsRepository = {
  ...shared,

  /** A subscription with its rules and their invoice rules; call inside a transaction. */
  insertWithRules: async (trx: Knex, row: SubscriptionRow, rules: SubscriptionRuleRow[], invoiceRules: InvoiceRuleRow[]): Promise<void> => {
    await shared.table(trx).insert(row);
    if (rules.length) await trx<SubscriptionRuleRow>('subscription_rules').insert(rules);
    if (invoiceRules.length) await trx<InvoiceRuleRow>('invoice_rules').insert(invoiceRules);
  },

  /**
   * A cancelled subscription's next charge to plan: kept only while it is dated before the
   * cancellation (due before it, not planned yet: billing still makes it), else none — so billing
   * never reads it again.
   */
  nextChargeDateBefore: (db: Knex, cancelAt: string) => db.raw('CASE WHEN next_charge_date < ? THEN next_charge_date ELSE NULL END', [cancelAt]),

  findByOriginKey: (db: Knex, accountId: string, originKey: string) => shared.table(db).where({ account_id: accountId, origin_key: originKey }).first(),

  /** The subscriptions a store order started, oldest first. */
  startedByOrder: (db: Knex, accountId: string, orderId: string, limit: number) =>
    shared.table(db).where({ account_id: accountId, origin_order_id: orderId }).orderBy('created_at', 'asc').limit(limit),

  /** Rules of several subscriptions in one query, in their running order. */
  rulesOf: async (db: Knex, accountId: string, subscriptionIds: string[]): Promise<SubscriptionRuleRow[]> =>
    subscriptionIds.length
      ? db<SubscriptionRuleRow>('subscription_rules')
          .where('account_id', accountId)
          .whereIn('subscription_id', subscriptionIds)
          .orderBy([{ column: 'subscription_id' }, { column: 'position' }])
      : [],
};

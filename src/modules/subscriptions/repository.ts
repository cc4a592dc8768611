import type { ImportSourceName } from './sourceNames';
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
  /** Why the customer cancelled in the portal, when they said (migration 041); absent on older rows written by tests. */
  cancel_reason?: string | null;
  workflow_id: string | null;
  docstyle_id: string | null;
  /**
   * `order-<order id>-line<position>` (`-wcs<the store's subscription id>`; before: `-<interval>`) for a
   * subscription a paid store order made; unique per account.
   */
  origin_key?: string | null;
  /** The store order it was made from: its later charges become renewal orders of it. */
  origin_order_id?: string | null;
  /** The store's subscriptions extension's subscription it bills (migration 044): its renewal orders are linked to it. */
  shop_subscription_id?: number | string | null;
  /** Where an imported subscription came from and its id there (migration 045); null when made here. */
  source?: ImportSourceName | null;
  source_id?: string | null;
  /** An imported subscription its source still bills (migration 046): billing plans none of its charges yet. */
  handover_pending?: boolean | number;
  /**
   * Why its charges cannot be invoiced (migration 053): the VAT the store or the import charged could not
   * be derived. Its invoices are then `not_issued` with this reason; null: invoiced by its invoice rules.
   */
  invoice_refusal?: string | null;
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
  vat_amount: number | null; // cents, the VAT of the whole line as the store charged it; null: computed from `vat`
  ledger_account_id: string | null;
}

/** An active subscription on a direct-debit mandate whose next charge is near, with what its notice says. */
export interface PreNotificationDue {
  subscription_id: string;
  account_id: string;
  name: string;
  next_payment_at: string;
  next_amount: number;
  currency: string;
  email: string;
  locale: string | null;
  first_name: string;
  last_name: string;
  mandate_reference: string | null;
  merchant: string;
  contact_email: string | null;
  creditor_id: string | null;
  days: number;
}

const shared = tenantTable<SubscriptionRow>('subscriptions');

/** Column changes: a value, or an expression the database computes (`nextChargeDateBefore`). */
export type SubscriptionChanges = { [Column in keyof SubscriptionRow]?: SubscriptionRow[Column] | Knex.Raw };

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
  nextChargeDateBefore: (db: Knex, cancelAt: string) =>
    db.raw('CASE WHEN next_charge_date < ? THEN next_charge_date ELSE NULL END', [cancelAt]),

  findByOriginKey: (db: Knex, accountId: string, originKey: string) =>
    shared.table(db).where({ account_id: accountId, origin_key: originKey }).first(),

  /** The subscriptions these store orders started that can still be charged and have no cancel date yet. */
  liveStartedByOrders: (db: Knex, accountId: string, orderIds: readonly string[]): Promise<SubscriptionRow[]> =>
    orderIds.length
      ? shared
          .table(db)
          .where({ account_id: accountId })
          .whereIn('origin_order_id', [...orderIds])
          .whereIn('status', ['draft', 'active', 'paused'])
          .whereNull('cancel_at')
          .orderBy('created_at', 'asc')
      : Promise.resolve([]),

  /** The subscriptions a store order started, oldest first. */
  startedByOrder: (db: Knex, accountId: string, orderId: string, limit: number) =>
    shared.table(db).where({ account_id: accountId, origin_order_id: orderId }).orderBy('created_at', 'asc').limit(limit),
  update: (db: Knex, row: Pick<SubscriptionRow, 'id' | 'account_id'>, changes: Partial<SubscriptionRow>) =>
    shared.table(db).where({ id: row.id, account_id: row.account_id }).update(changes),

  /**
   * Changes the subscription only if it is still as `before` (its status and next charge number): of
   * two changes made from the same reading, one wins. Its row stays locked until the transaction ends.
   */
  updateIfUnchanged: (
    db: Knex,
    before: Pick<SubscriptionRow, 'id' | 'account_id' | 'status' | 'next_charge_number'>,
    changes: Partial<SubscriptionRow>,
  ) =>
    shared
      .table(db)
      .where({ id: before.id, account_id: before.account_id, status: before.status, next_charge_number: before.next_charge_number })
      .update(changes),

  /** Changes the subscription only while it has this status; 0 when it has another. */
  updateIfInStatus: (db: Knex, row: Pick<SubscriptionRow, 'id' | 'account_id'>, status: SubscriptionStatus, changes: SubscriptionChanges) =>
    shared.table(db).where({ id: row.id, account_id: row.account_id, status }).update(changes),

  /** Changes the subscription only while it has one of these statuses; 0 when it has another. */
  updateIfInStatuses: (
    db: Knex,
    row: Pick<SubscriptionRow, 'id' | 'account_id'>,
    statuses: SubscriptionStatus[],
    changes: SubscriptionChanges,
  ) => shared.table(db).where({ id: row.id, account_id: row.account_id }).whereIn('status', statuses).update(changes),

  /** Subscriptions in these statuses whose cancellation date has come, across accounts. */
  dueToCancel: (db: Knex, statuses: SubscriptionStatus[], date: string) =>
    shared.table(db).whereIn('status', statuses).whereNotNull('cancel_at').andWhere('cancel_at', '<=', date),

  /** Paused subscriptions whose resume date has come, across accounts. */
  dueToResume: (db: Knex, date: string) =>
    shared.table(db).where('status', 'paused').whereNotNull('resume_at').andWhere('resume_at', '<=', date),

  /**
   * The customer's subscriptions in these statuses not charged on `mandateId` (those a new mandate can
   * take over), limited to `ids` unless null.
   */
  ofCustomerNotOnMandate: async (
    db: Knex,
    accountId: string,
    customerId: string,
    options: { statuses: readonly SubscriptionStatus[]; mandateId: string; ids: readonly string[] | null },
  ): Promise<SubscriptionRow[]> =>
    (await shared
      .table(db)
      .where({ account_id: accountId, customer_id: customerId })
      .whereIn('status', [...options.statuses])
      .whereNot('provider_mandate_id', options.mandateId)
      .modify((query) => {
        if (options.ids !== null) query.whereIn('id', [...options.ids]);
      })
      .orderBy('id')) as SubscriptionRow[],

  /** The customer's subscriptions in these statuses charged on the mandate, by name (a takeover's confirmation names them). */
  namesOnMandate: async (
    db: Knex,
    accountId: string,
    customerId: string,
    mandateId: string,
    statuses: readonly SubscriptionStatus[],
  ): Promise<string[]> =>
    db('subscriptions')
      .where({ account_id: accountId, customer_id: customerId, provider_mandate_id: mandateId })
      .whereIn('status', [...statuses])
      .orderBy('seq')
      .pluck('name'),

  /** The draft subscriptions that wait for this mandate. */
  draftsOnMandate: (db: Knex, accountId: string, mandateId: string) =>
    shared.table(db).where({ account_id: accountId, provider_mandate_id: mandateId, status: 'draft' }),

  /**
   * One page of the subscriptions in these statuses with a charge to plan on or before `date`,
   * across accounts, in `seq` order after `afterSeq`.
   */
  dueForPlanning: async (
    db: Knex,
    options: { statuses: SubscriptionStatus[]; date: string; afterSeq: number; limit: number },
  ): Promise<Array<SubscriptionRow & { seq: number }>> =>
    (await shared
      .table(db)
      .whereIn('status', options.statuses)
      .andWhere('next_charge_date', '<=', options.date)
      // An import's subscription waits until its source stops billing it (see the import's hand-over).
      .andWhere('handover_pending', false)
      .andWhere('seq', '>', options.afterSeq)
      .orderBy('seq')
      .limit(options.limit)) as Array<SubscriptionRow & { seq: number }>,

  /** The rules of these subscriptions, whichever account's (any order). */
  rulesOfSubscriptions: (db: Knex, subscriptionIds: string[]) =>
    db<SubscriptionRuleRow>('subscription_rules').whereIn('subscription_id', subscriptionIds),

  /** How many times a rule has been charged (planned), as the schedule counts them. */
  setTimesDone: (db: Knex, rule: Pick<SubscriptionRuleRow, 'id' | 'account_id'>, times: number) =>
    db<SubscriptionRuleRow>('subscription_rules').where({ id: rule.id, account_id: rule.account_id }).update({ times_done: times }),

  /** The account's active subscriptions on a direct-debit mandate whose next charge is after `after`, on or before `until`. */
  dueForPreNotification: async (db: Knex, accountId: string, dates: { after: string; until: string }): Promise<PreNotificationDue[]> =>
    (await db('subscriptions')
      .join('customers', 'customers.id', 'subscriptions.customer_id')
      .join('mandates', 'mandates.id', 'subscriptions.provider_mandate_id')
      .join('accounts', 'accounts.id', 'subscriptions.account_id')
      .where('subscriptions.account_id', accountId)
      .where('subscriptions.status', 'active')
      // Not while an import's source still bills it: that charge may be the source's, not ours.
      .where('subscriptions.handover_pending', false)
      .where('mandates.method', 'directdebit')
      .where('subscriptions.next_payment_at', '>', dates.after)
      .where('subscriptions.next_payment_at', '<=', dates.until)
      .select(
        'subscriptions.id as subscription_id',
        'subscriptions.account_id',
        'subscriptions.name',
        'subscriptions.next_payment_at',
        'subscriptions.next_amount',
        'subscriptions.currency',
        'customers.email',
        'customers.locale',
        'customers.first_name',
        'customers.last_name',
        'mandates.mandate_reference',
        db.raw('COALESCE(accounts.display_name, accounts.name) as merchant'),
        'accounts.contact_email',
        'accounts.creditor_id',
      )) as PreNotificationDue[],

  /** The invoice lines of one subscription rule, as written (any order). */
  invoiceRulesOf: (db: Knex, accountId: string, subscriptionRuleId: string) =>
    db<InvoiceRuleRow>('invoice_rules').where({ account_id: accountId, subscription_rule_id: subscriptionRuleId }),

  findRule: (db: Knex, accountId: string, id: string): Promise<SubscriptionRuleRow | undefined> =>
    db<SubscriptionRuleRow>('subscription_rules').where({ account_id: accountId, id }).first(),

  /** What the bookkeeping system needs of the subscription for its invoices. */
  bookkeepingStyleOf: (db: Knex, accountId: string, id: string) =>
    db('subscriptions')
      .where({ id, account_id: accountId })
      .first<{ workflow_id: string | null; docstyle_id: string | null } | undefined>('workflow_id', 'docstyle_id'),

  /** Rules that never charged, with their invoice lines: a PATCH of rules replaces them. */
  deleteRules: async (trx: Knex, accountId: string, ruleIds: string[]): Promise<void> => {
    if (!ruleIds.length) return;
    await trx<InvoiceRuleRow>('invoice_rules').where('account_id', accountId).whereIn('subscription_rule_id', ruleIds).delete();
    await trx<SubscriptionRuleRow>('subscription_rules').where('account_id', accountId).whereIn('id', ruleIds).delete();
  },

  /** A rule ends after the charges it made: a PATCH of rules lets the new rules run from there. */
  endRuleAfter: (trx: Knex, rule: Pick<SubscriptionRuleRow, 'id' | 'account_id'>, times: number) =>
    trx<SubscriptionRuleRow>('subscription_rules').where({ id: rule.id, account_id: rule.account_id }).update({ times, times_done: times }),

  insertRules: async (trx: Knex, rules: SubscriptionRuleRow[], invoiceRules: InvoiceRuleRow[]): Promise<void> => {
    if (rules.length) await trx<SubscriptionRuleRow>('subscription_rules').insert(rules);
    if (invoiceRules.length) await trx<InvoiceRuleRow>('invoice_rules').insert(invoiceRules);
  },

  /** How many of the account's subscriptions are in each status (statuses without any are absent). */
  countByStatus: async (db: Knex, accountId: string): Promise<Map<SubscriptionStatus, number>> => {
    const rows: Array<{ status: SubscriptionStatus; count: number | string }> = await shared
      .table(db)
      .where({ account_id: accountId })
      .groupBy('status')
      .select('status')
      .count({ count: '*' });
    return new Map(rows.map((row) => [row.status, Number(row.count)]));
  },

  /** The rules of the account's active subscriptions, with the subscription's currency, in running order. */
  rulesOfActive: (db: Knex, accountId: string): Promise<Array<SubscriptionRuleRow & { subscription_currency: string }>> =>
    db<SubscriptionRuleRow>('subscription_rules')
      .join('subscriptions', 'subscriptions.id', 'subscription_rules.subscription_id')
      .where({ 'subscriptions.account_id': accountId, 'subscriptions.status': 'active' })
      .select('subscription_rules.*', 'subscriptions.currency as subscription_currency')
      .orderBy([{ column: 'subscription_rules.subscription_id' }, { column: 'subscription_rules.position' }]),

  /** Rules of several subscriptions in one query, in their running order. */
  rulesOf: async (db: Knex, accountId: string, subscriptionIds: string[]): Promise<SubscriptionRuleRow[]> =>
    subscriptionIds.length
      ? db<SubscriptionRuleRow>('subscription_rules')
          .where('account_id', accountId)
          .whereIn('subscription_id', subscriptionIds)
          .orderBy([{ column: 'subscription_id' }, { column: 'position' }])
      : [],
};

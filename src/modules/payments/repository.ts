import type { Knex } from 'knex';
import { tenantTable } from '../../db/tenantTable';
import type { SequenceType } from '../../providers/types';
import type { PaymentPurpose } from './purposes';
import type { PaymentRowStatus } from './transitions';
import { readRow } from '../../db/hotReads';

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

  /** A hot read outside a transaction (db/hotReads): every charge asks it first. */
  findByOriginKey: (db: Knex, accountId: string, originKey: string) =>
    readRow<PaymentRow>(db, 'select * from `payments` where `account_id` = ? and `origin_key` = ? limit 1', [accountId, originKey]),

  /**
   * Whether the account has a payment a provider payment unknown here could belong to: one still
   * `creating`, or one given up as `rejected` that reconciliation is still to look for.
   */
  anyAwaitingItsProviderPayment: async (db: Knex, accountId: string): Promise<boolean> =>
    (await table(db).where({ account_id: accountId, status: 'creating' }).first('id')) !== undefined ||
    (await table(db).where({ account_id: accountId, status: 'rejected' }).whereNotNull('next_attempt_at').first('id')) !== undefined,

  /** The newest payment made for one purpose (a link, an order). */
  latestOfPurpose: async (db: Knex, accountId: string, purpose: PaymentPurpose, purposeId: string): Promise<PaymentRow | undefined> => {
    const [latest] = await table(db)
      .where({ account_id: accountId, purpose, purpose_id: purposeId })
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(1);
    return latest;
  },

  findInProgress: (db: Knex, accountId: string, inProgressKey: string) =>
    table(db).where({ account_id: accountId, in_progress_key: inProgressKey }).first(),

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

  /** Changes a payment (its status, say) only while its status is still `from`: of two concurrent changes of one payment, one wins. */
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

  /** The payments a follow-up made (its retries), and those of its payment link, in these statuses. */
  ofFollowUp: (db: Knex, followUp: { accountId: string; id: string; linkId: string | null }, statuses: string[]) =>
    table(db)
      .where('account_id', followUp.accountId)
      .andWhere((which) => {
        which.where({ purpose: 'follow-up', purpose_id: followUp.id });
        if (followUp.linkId !== null) which.orWhere({ purpose: 'link', purpose_id: followUp.linkId });
      })
      .whereIn('status', statuses),

  /**
   * Payments in these statuses of follow-ups resolved at or after `since`, across accounts: first
   * their retries, then the payments of their links where the link was withdrawn (an expired link's
   * late payment is the payer's).
   */
  ofFollowUpsResolvedSince: async (db: Knex, since: string, statuses: string[]): Promise<PaymentRow[]> => {
    const leftover = (purpose: 'follow-up' | 'link', column: 'follow_ups.id' | 'follow_ups.link_id') =>
      table(db)
        .join('follow_ups', (on) => on.on('follow_ups.account_id', 'payments.account_id').andOn(column, 'payments.purpose_id'))
        .where('payments.purpose', purpose)
        .whereIn('payments.status', statuses)
        .whereIn('follow_ups.status', ['solved', 'failed'])
        .where('follow_ups.resolved_at', '>=', since)
        .select('payments.*');
    const links = leftover('link', 'follow_ups.link_id')
      .join('payment_links', 'payment_links.id', 'follow_ups.link_id')
      .where('payment_links.active', false);
    return [...(await leftover('follow-up', 'follow_ups.id')), ...(await links)];
  },

  /** Another payment for the same purpose (a link, an order) that is paid already. */
  findOtherPaid: (db: Knex, payment: Pick<PaymentRow, 'id' | 'account_id' | 'purpose' | 'purpose_id'>) =>
    table(db)
      .where({ account_id: payment.account_id, purpose: payment.purpose, purpose_id: payment.purpose_id, status: 'paid' })
      .whereNot('id', payment.id)
      .first('id'),

  /**
   * Pairs of paid payments for one link or order, one of them paid (updated) at or after `since`, of
   * which neither has a double-payment follow-up yet. Each pair comes twice, once from either side.
   */
  paidTwiceWithoutFollowUp: (
    db: Knex,
    since: string,
  ): Promise<Array<{ recent: string; other: string; recent_seq: number; other_seq: number; account_id: string }>> => {
    const noFollowUp = (alias: string) => (query: Knex.QueryBuilder) =>
      query
        .select(1)
        .from('follow_ups')
        .where('follow_ups.kind', 'double_payment')
        .whereRaw('follow_ups.account_id = ??.account_id and follow_ups.payment_id = ??.id', [alias, alias]);
    return db('payments as recent')
      .join('payments as other', (on) =>
        on
          .on('other.account_id', 'recent.account_id')
          .andOn('other.purpose', 'recent.purpose')
          .andOn('other.purpose_id', 'recent.purpose_id'),
      )
      .where('recent.status', 'paid')
      .where('recent.updated_at', '>=', since)
      .whereIn('recent.purpose', ['link', 'order'])
      .where('other.status', 'paid')
      .whereNot('other.id', db.ref('recent.id'))
      .whereNotExists(noFollowUp('recent'))
      .whereNotExists(noFollowUp('other'))
      .select('recent.account_id', 'recent.id as recent', 'other.id as other', 'recent.seq as recent_seq', 'other.seq as other_seq');
  },

  /**
   * Up to `limit` of the account's payments in these statuses, known at the provider, not touched
   * since `untouchedSince` and created before their method's cut-off (`pastCutOff`: one per group of
   * methods, and one for any other method or none), the longest untouched first.
   */
  unsettledPastExpiry: (
    db: Knex,
    accountId: string,
    options: {
      statuses: readonly string[];
      untouchedSince: string;
      pastCutOff: {
        byMethods: Array<{ methods: string[]; createdBefore: string }>;
        otherMethods: { known: string[]; createdBefore: string };
      };
      limit: number;
    },
  ) =>
    table(db)
      .where('account_id', accountId)
      .whereIn('status', options.statuses)
      .whereNotNull('provider_payment_id')
      .andWhere('updated_at', '<=', options.untouchedSince)
      .andWhere((query) => {
        for (const { methods, createdBefore } of options.pastCutOff.byMethods) {
          query.orWhere((group) => group.whereIn('method', methods).andWhere('created_at', '<=', createdBefore));
        }
        const { known, createdBefore } = options.pastCutOff.otherMethods;
        query.orWhere((group) => {
          if (known.length) group.where((unknown) => unknown.whereNull('method').orWhereNotIn('method', known));
          group.andWhere('created_at', '<=', createdBefore);
        });
      })
      .orderBy([{ column: 'updated_at' }, { column: 'seq' }])
      .limit(options.limit)
      .select<Array<Pick<PaymentRow, 'id' | 'account_id' | 'provider_payment_id' | 'status' | 'method' | 'created_at' | 'updated_at'>>>(
        'id',
        'account_id',
        'provider_payment_id',
        'status',
        'method',
        'created_at',
        'updated_at',
      ),

  /** Payments given up as rejected whose later look-up is due, across accounts, longest waiting first. */
  rejectedDueForRecheck: (db: Knex, now: string, limit: number) =>
    table(db).where('status', 'rejected').andWhere('next_attempt_at', '<=', now).orderBy('next_attempt_at').limit(limit),

  recordStatus: (db: Knex, row: PaymentStatusChangeRow) => db('payment_status_changes').insert(row),

  statusHistory: (db: Knex, accountId: string, paymentId: string) =>
    db<PaymentStatusChangeRow>('payment_status_changes')
      .where({ account_id: accountId, payment_id: paymentId })
      .orderBy('seq', 'asc')
      .select('status', 'changed_at'),
};

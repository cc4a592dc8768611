import type { Knex } from 'knex';
import { tenantTable } from '../../db/tenantTable';
import type { FollowUpType } from '../accounts/followUpChoices';

// The account's choices (its follow_up_* columns) are named with the account; a follow-up records its type.
export { FOLLOW_UP_TYPES, ON_FAILURE_ACTIONS, type FollowUpType, type OnFailureAction } from '../accounts/followUpChoices';

export const FOLLOW_UP_STATUSES = ['pending', 'solved', 'failed'] as const;
export type FollowUpStatus = (typeof FOLLOW_UP_STATUSES)[number];

export type FollowUpKind = 'failure' | 'chargeback' | 'mandate' | 'double_payment';
export type FollowUpStage = 'retry' | 'link' | 'waiting' | 'refund' | 'done';

export interface FollowUpRow {
  id: string;
  account_id: string;
  customer_id: string | null;
  subscription_id: string | null;
  order_id: string | null;
  payment_id: string | null;
  type: FollowUpType;
  status: FollowUpStatus;
  description: string;
  amount: number; // cents
  currency: string;
  provider_profile_id: string | null;
  provider_payment_id: string | null;
  reason: string | null;
  reason_code: string | null;
  retries_done: number;
  mails_sent: number;
  next_retry_at: string | null; // Y-m-d: when the next step (a retry, or the link e-mail) is due
  /**
   * failure: a failed charge; chargeback: money taken back; mandate: a charge not made for want of a
   * valid mandate; double_payment: a link or store order paid a second time (doublePayments.ts).
   */
  kind: FollowUpKind;
  /** `<kind>-<payment or charge id>`: unique per account, so a repeated webhook never opens a second follow-up. */
  origin_key: string;
  /**
   * retry or link: that step is due at next_retry_at; waiting: for the retry's or the link's payment;
   * refund: for the merchant to refund a double payment (nothing is charged or sent); done.
   */
  stage: FollowUpStage;
  link_id: string | null;
  resolved_at: string | null;
  created_at: string;
  updated_at: string;
}

const shared = tenantTable<FollowUpRow>('follow_ups');
const { table } = shared;

export const followUpsRepository = {
  ...shared,

  /** How many of the account's follow-ups are still pending (what the shop owner still has to see settled). */
  countPending: async (db: Knex, accountId: string): Promise<number> => {
    const row: { count?: number | string } | undefined = await table(db)
      .where({ account_id: accountId, status: 'pending' })
      .count({ count: '*' })
      .first();
    return Number(row?.count ?? 0);
  },

  /** The latest follow-ups of some subscriptions, newest first. */
  latestOfSubscriptions: async (db: Knex, accountId: string, subscriptionIds: string[], limit: number): Promise<FollowUpRow[]> =>
    subscriptionIds.length
      ? shared
          .table(db)
          .where({ account_id: accountId })
          .whereIn('subscription_id', subscriptionIds)
          .orderBy('created_at', 'desc')
          .limit(limit)
      : [],
  insert: (db: Knex, row: FollowUpRow) => table(db).insert(row),

  findByOriginKey: (db: Knex, accountId: string, originKey: string) =>
    table(db).where({ account_id: accountId, origin_key: originKey }).first(),

  /** Moves a pending follow-up on from the stage (and retries) it was read with, only if nobody moved it first. */
  advanceIfUnmoved: (db: Knex, row: Pick<FollowUpRow, 'id' | 'account_id' | 'stage' | 'retries_done'>, changes: Partial<FollowUpRow>) =>
    table(db)
      .where({ id: row.id, account_id: row.account_id, status: 'pending', stage: row.stage, retries_done: row.retries_done })
      .update(changes),

  /** Ends a pending follow-up as solved or failed; 0 when it had ended already. */
  resolve: (db: Knex, row: Pick<FollowUpRow, 'id' | 'account_id'>, status: 'solved' | 'failed', now: string) =>
    table(db)
      .where({ id: row.id, account_id: row.account_id, status: 'pending' })
      .update({ status, stage: 'done', next_retry_at: null, resolved_at: now, updated_at: now }),

  /** The pending follow-ups that sent this payment link. */
  pendingOfLink: (db: Knex, accountId: string, linkId: string) =>
    table(db).where({ account_id: accountId, link_id: linkId, status: 'pending' }),

  /** The follow-ups that sent this payment link, whatever their status. */
  ofLink: (db: Knex, accountId: string, linkId: string) => table(db).where({ account_id: accountId, link_id: linkId }),

  /** Pending follow-ups whose retry or link is due on or before `date`, across accounts, longest due first. */
  dueSteps: (db: Knex, date: string, limit: number) =>
    table(db)
      .where('status', 'pending')
      .whereIn('stage', ['retry', 'link'])
      .andWhere('next_retry_at', '<=', date)
      .orderBy('next_retry_at')
      .limit(limit),

  /** Follow-ups waiting for a payment link that expired or was cancelled unpaid, across accounts. */
  waitingOnLapsedLinks: (db: Knex): Promise<FollowUpRow[]> =>
    table(db)
      .join('payment_links', 'payment_links.id', 'follow_ups.link_id')
      .where('follow_ups.status', 'pending')
      .where('follow_ups.stage', 'waiting')
      .whereIn('payment_links.status', ['expired', 'cancelled'])
      .select('follow_ups.*'),
};

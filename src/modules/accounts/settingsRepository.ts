import type { Knex } from 'knex';
import type { FollowUpType, OnFailureAction } from '../follow-ups/repository';

/**
 * The account's own settings that other modules read and the CLI sets (follow-ups, pre-notification,
 * account events, bookkeeping): columns of the accounts table, so queried here, beside its repository.
 */

/** How the account follows up failed payments, as stored. */
export interface FollowUpSettingsColumns {
  follow_up_type: FollowUpType;
  follow_up_max_retries: number;
  follow_up_retry_days: number;
  follow_up_on_failure: OnFailureAction;
}

const accounts = (db: Knex) => db('accounts');

export const accountSettingsRepository = {
  followUpSettings: (db: Knex, accountId: string) =>
    accounts(db)
      .where({ id: accountId })
      .first<FollowUpSettingsColumns | undefined>('follow_up_type', 'follow_up_max_retries', 'follow_up_retry_days', 'follow_up_on_failure'),

  setFollowUpSettings: (db: Knex, accountId: string, columns: FollowUpSettingsColumns & { updated_at: string }) => accounts(db).where({ id: accountId }).update(columns),

  setEventsUrl: (db: Knex, accountId: string, url: string | null, now: string) => accounts(db).where({ id: accountId }).update({ events_url: url, updated_at: now }),

  setPreNotificationDays: (db: Knex, accountId: string, days: number | null, now: string) =>
    accounts(db).where({ id: accountId }).update({ pre_notification_days: days, updated_at: now }),

  /** The accounts that tell customers of a direct debit in advance, and how many days. */
  withPreNotification: async (db: Knex): Promise<Array<{ id: string; pre_notification_days: number }>> =>
    (await accounts(db).whereNotNull('pre_notification_days').select('id', 'pre_notification_days')) as Array<{ id: string; pre_notification_days: number }>,

  bookkeepingSystemOf: (db: Knex, accountId: string) => accounts(db).where({ id: accountId }).first<{ bookkeeping_system: string | null } | undefined>('bookkeeping_system'),

  /** Every account's id, in id order. */
  allIds: (db: Knex) => accounts(db).orderBy('id').pluck<string[]>('id'),
};

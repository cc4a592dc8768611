import type { Knex } from 'knex';
import { formatDate, formatNullableDate } from '../../time';
import type { PausePeriod } from './schedule';
import { readRows } from '../../db/hotReads';

export interface SubscriptionPauseRow {
  id: string;
  account_id: string;
  subscription_id: string;
  from_date: string; // Y-m-d
  until_date: string | null; // exclusive
  /** 'pause': from pause to resume; 'skip': one skipped charge (POST …/skip), which a resume leaves in place. */
  kind?: 'pause' | 'skip';
  created_at: string;
}

const table = (db: Knex) => db<SubscriptionPauseRow>('subscription_pauses');

/** The periods a subscription is or was paused, which decide the charges that are skipped. */
export const pausesRepository = {
  insert: (db: Knex, row: SubscriptionPauseRow) => table(db).insert(row),

  periodsOf: async (db: Knex, accountId: string, subscriptionId: string): Promise<PausePeriod[]> => {
    // Read before every charge and plan: a hot read outside a transaction (db/hotReads).
    const rows = await readRows<SubscriptionPauseRow>(
      db,
      'select * from `subscription_pauses` where `account_id` = ? and `subscription_id` = ? order by `from_date` asc',
      [accountId, subscriptionId],
    );
    return rows.map((row) => ({ from: formatDate(row.from_date), until: formatNullableDate(row.until_date) }));
  },

  /** Ends the pause still running (no end, or an end after `on`) on `on`: charges from that day are made again. */
  endOpen: (db: Knex, accountId: string, subscriptionId: string, on: string) =>
    table(db)
      .where({ account_id: accountId, subscription_id: subscriptionId, kind: 'pause' })
      .andWhere((q) => q.whereNull('until_date').orWhere('until_date', '>', on))
      .update({ until_date: on }),
};

import type { Knex } from 'knex';

/** One billing run, recorded so a missed or crashed one is made up (see jobs/bill.ts). */
export interface BillingRunRow {
  seq: number;
  billing_date: string; // Y-m-d in APP_TIMEZONE
  started_at: string;
  alive_at: string;
  finished_at: string | null;
  /** Charges the run made, once it finished (migration 051). */
  charged?: number | null;
}

const table = (db: Knex) => db<BillingRunRow>('billing_runs');

export const billingRunsRepository = {
  /**
   * Whether a run as of `date` or later started at or after `since` and either finished or is still
   * alive (beat at or after `aliveSince`): then nothing is missing since `since`.
   */
  coveredSince: async (db: Knex, options: { since: string; date: string; aliveSince: string }): Promise<boolean> => {
    const run = await table(db)
      .select('seq')
      .where('started_at', '>=', options.since)
      .andWhere('billing_date', '>=', options.date)
      .andWhere((done) => done.whereNotNull('finished_at').orWhere('alive_at', '>=', options.aliveSince))
      .first();
    return run !== undefined;
  },

  /** Records a run's start; answers its number. */
  start: async (db: Knex, run: Omit<BillingRunRow, 'seq'>): Promise<number> => {
    const [seq] = await table(db).insert(run);
    return seq as number;
  },

  record: (db: Knex, seq: number, changes: Partial<BillingRunRow>) => table(db).where({ seq }).update(changes),
};

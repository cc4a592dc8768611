import type { Knex } from 'knex';

/** What a `mandate` link's new mandate takes over when its first payment is paid (migration 037). */
export interface MandateTakeoverRow {
  link_id: string;
  account_id: string;
  customer_id: string;
  /** JSON list of subscription ids; null: every subscription of the customer in use when it is paid. */
  subscription_ids: string | null;
  new_mandate_id: string | null;
  taken_over_at: string | null;
  created_at: string;
}

const table = (db: Knex) => db<MandateTakeoverRow>('mandate_takeovers');

export const mandateTakeoversRepository = {
  insert: (db: Knex, row: MandateTakeoverRow) => table(db).insert(row),

  find: (db: Knex, accountId: string, linkId: string) => table(db).where({ account_id: accountId, link_id: linkId }).first(),

  /** Claims the takeover for this mandate: 1 for the first caller, 0 once it was done. */
  claim: (db: Knex, row: Pick<MandateTakeoverRow, 'account_id' | 'link_id'>, mandateId: string, now: string) =>
    table(db)
      .where({ account_id: row.account_id, link_id: row.link_id })
      .whereNull('taken_over_at')
      .update({ taken_over_at: now, new_mandate_id: mandateId }),
};

export const subscriptionIdsOf = (row: Pick<MandateTakeoverRow, 'subscription_ids'>): string[] | null =>
  row.subscription_ids === null ? null : (JSON.parse(row.subscription_ids) as string[]);

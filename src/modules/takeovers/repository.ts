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
  /** `portal`: the customer changed their payment method in the portal (migration 041); null otherwise. */
  requested_via?: TakeoverRequester | null;
  created_at: string;
}

export type TakeoverRequester = 'portal';

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

/** Whether a new store checkout's mandate takes over the customer's subscriptions (off unless set). */
export const accountTakeoverSettingsRepository = {
  storeCheckout: async (db: Knex, accountId: string): Promise<boolean> => {
    const row = await db('account_takeover_settings')
      .where({ account_id: accountId })
      .first<{ store_checkout: boolean | number } | undefined>();
    return Boolean(Number(row?.store_checkout ?? 0));
  },

  setStoreCheckout: async (db: Knex, accountId: string, on: boolean, now: string): Promise<void> => {
    const updated = await db('account_takeover_settings').where({ account_id: accountId }).update({ store_checkout: on, updated_at: now });
    if (!updated) await db('account_takeover_settings').insert({ account_id: accountId, store_checkout: on, updated_at: now });
  },
};

/**
 * A takeover whose new mandate was still `pending` (migration 054): what it is to move once the mandate
 * turns valid, named by what asked for it (`link-<id>`, `order-<id>`), done once (`moved_at`).
 */
export interface WaitingTakeoverRow {
  account_id: string;
  origin_key: string;
  mandate_id: string;
  customer_id: string;
  /** JSON list of subscription ids; null: every subscription of the customer in use then. */
  subscription_ids: string | null;
  link_id: string | null;
  order_id: string | null;
  requested_via: TakeoverRequester | null;
  moved_at: string | null;
  created_at: string;
}

const waiting = (db: Knex) => db<WaitingTakeoverRow>('mandate_waiting_takeovers');

export const waitingTakeoversRepository = {
  /** Recorded once per origin: the same settle seen again keeps the first row. */
  insert: async (db: Knex, row: WaitingTakeoverRow): Promise<void> => {
    if (await waiting(db).where({ account_id: row.account_id, origin_key: row.origin_key }).first()) return;
    await waiting(db).insert(row);
  },

  /** Those still waiting for this mandate, oldest first. */
  waitingFor: (db: Knex, accountId: string, mandateId: string): Promise<WaitingTakeoverRow[]> =>
    waiting(db).where({ account_id: accountId, mandate_id: mandateId }).whereNull('moved_at').orderBy('created_at').orderBy('origin_key'),

  /** Claims it: 1 for the first caller, 0 once it was moved. */
  claim: (db: Knex, row: Pick<WaitingTakeoverRow, 'account_id' | 'origin_key'>, now: string): Promise<number> =>
    waiting(db).where({ account_id: row.account_id, origin_key: row.origin_key }).whereNull('moved_at').update({ moved_at: now }),
};

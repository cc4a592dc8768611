import type { Knex } from 'knex';
import { isUniqueViolation } from '../../db/connect';
import type { ImportSourceName } from '../subscriptions/sourceNames';

/**
 * Where the hand-over of one imported source subscription stands (migration 054): when we asked the
 * source to stop billing it, and when ours was held because someone else stopped it first.
 */
export interface ImportHandOverRow {
  account_id: string;
  source: ImportSourceName;
  source_id: string;
  subscription_id: string;
  cancel_requested_at: string | null;
  held_at: string | null;
  created_at: string;
  updated_at: string;
}

export type HandOverKey = Pick<ImportHandOverRow, 'account_id' | 'source' | 'source_id'>;

const table = (db: Knex) => db<ImportHandOverRow>('import_handovers');
const whereKey = (db: Knex, key: HandOverKey) =>
  table(db).where({ account_id: key.account_id, source: key.source, source_id: key.source_id });

export const importHandOversRepository = {
  find: (db: Knex, key: HandOverKey): Promise<ImportHandOverRow | undefined> => whereKey(db, key).first(),

  /** The row of this source subscription, made the first time it is needed (a second maker finds the first's). */
  ensure: async (db: Knex, key: HandOverKey, subscriptionId: string, now: string): Promise<void> => {
    if (await whereKey(db, key).first()) return;
    try {
      await table(db).insert({
        ...key,
        subscription_id: subscriptionId,
        cancel_requested_at: null,
        held_at: null,
        created_at: now,
        updated_at: now,
      });
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
    }
  },

  /**
   * Records that we ask the source to cancel it, at the moment of this (latest) request: a cancel the
   * source made long after it was not ours (providerHandOver's canceledByUs).
   */
  recordCancelRequest: (db: Knex, key: HandOverKey, now: string) => whereKey(db, key).update({ cancel_requested_at: now, updated_at: now }),

  /** Marks ours held: 1 the first time (when the merchant is told), 0 after. */
  markHeld: (db: Knex, key: HandOverKey, now: string): Promise<number> =>
    whereKey(db, key).whereNull('held_at').update({ held_at: now, updated_at: now }),
};

import type { Knex } from 'knex';
import { retryDeadlocks } from '../../db/deadlocks';

export const CHARGE_STATUSES = ['due', 'charged', 'paid', 'failed', 'skipped', 'not_charged', 'cancelled'] as const;
/**
 * due: planned, not yet made; charged: its recurring payment exists; paid / failed: how that payment
 * settled; skipped: dated in a paused period; not_charged: the mandate was not valid (a follow-up
 * asks the customer to pay by link); cancelled: the subscription was cancelled before it was made.
 */
export type ChargeStatus = (typeof CHARGE_STATUSES)[number];

/** One period of one subscription. Unique on (subscription_id, charge_number): a period has one row, ever. */
export interface ChargeRow {
  id: string;
  account_id: string;
  subscription_id: string;
  charge_number: number;
  rule_id: string;
  due_date: string; // Y-m-d
  amount: number; // cents
  currency: string;
  status: ChargeStatus;
  payment_id: string | null;
  claim_token: string | null;
  claimed_until: string | null;
  attempts: number;
  last_error: string | null;
  created_at: string;
  updated_at: string;
}

const table = (db: Knex) => db<ChargeRow>('subscription_charges');

export const chargesRepository = {
  /** Writes planned charges; a row that exists already (another planner was first) is left as it is. */
  insertNew: async (db: Knex, rows: ChargeRow[]): Promise<void> => {
    if (rows.length) await table(db).insert(rows).onConflict(['subscription_id', 'charge_number']).ignore();
  },

  find: (db: Knex, accountId: string, id: string) => table(db).where({ account_id: accountId, id }).first(),

  /**
   * Claims up to `limit` due charges for one worker: a conditional UPDATE that only takes rows whose
   * claim is free or expired, so two instances never work on one row at once, and a crashed
   * instance's rows are taken over when its claim runs out. Safe on MySQL/MariaDB (row locks under
   * the UPDATE) and SQLite (one writer at a time). The claim only spreads the work: the unique
   * charge row and the payment's unique origin key are what make a charge happen once.
   */
  claim: async (db: Knex, options: { date: string; now: string; until: string; token: string; limit: number }): Promise<ChargeRow[]> => {
    const claimable = (q: Knex.QueryBuilder) =>
      q.where('status', 'due').andWhere((free) => free.whereNull('claimed_until').orWhere('claimed_until', '<', options.now));
    // A few times more candidates than needed, taken at random, so instances racing for the same
    // oldest rows mostly pick different ones.
    const candidates: Array<{ id: string }> = await claimable(table(db).select('id'))
      .andWhere('due_date', '<=', options.date)
      .orderBy([{ column: 'due_date' }, { column: 'seq' }])
      .limit(options.limit * 4);
    if (!candidates.length) return [];
    const picked = candidates
      .map((row) => ({ id: row.id, order: Math.random() }))
      .sort((a, b) => a.order - b.order)
      .slice(0, options.limit)
      .map((row) => row.id);
    await retryDeadlocks(() =>
      claimable(table(db).whereIn('id', picked)).update({ claim_token: options.token, claimed_until: options.until }),
    );
    return table(db).where({ claim_token: options.token, status: 'due' });
  },

  /** Whether a charge due on or before `date` waits for a run: due, and not held by a claim or a wait. */
  anyWaiting: async (db: Knex, options: { date: string; now: string }): Promise<boolean> =>
    (await table(db)
      .where('status', 'due')
      .andWhere('due_date', '<=', options.date)
      .andWhere((free) => free.whereNull('claimed_until').orWhere('claimed_until', '<', options.now))
      .first('id')) !== undefined,

  /** Settles a charge this worker holds; a claim taken over meanwhile (ours expired) changes nothing. */
  finish: (db: Knex, row: Pick<ChargeRow, 'id' | 'account_id' | 'claim_token'>, changes: Partial<ChargeRow>) =>
    table(db)
      .where({ id: row.id, account_id: row.account_id, claim_token: row.claim_token, status: 'due' })
      .update({ ...changes, claim_token: null, claimed_until: null }),

  /** The outcome of the charge's payment was not learned: keep it due and let it be tried again after `retryAt`. */
  postpone: (
    db: Knex,
    row: Pick<ChargeRow, 'id' | 'account_id' | 'claim_token'>,
    changes: { retryAt: string; error: string; now: string },
  ) =>
    table(db)
      .where({ id: row.id, account_id: row.account_id, claim_token: row.claim_token, status: 'due' })
      .update({
        claimed_until: changes.retryAt,
        last_error: changes.error.slice(0, 191),
        updated_at: changes.now,
        attempts: db.raw('attempts + 1'),
      }),

  /** The subscription's charges still due, dated `from` or later, in charge order. */
  dueFrom: (db: Knex, subscription: { id: string; account_id: string }, from: string) =>
    table(db)
      .where({ account_id: subscription.account_id, subscription_id: subscription.id, status: 'due' })
      .andWhere('due_date', '>=', from)
      .orderBy('charge_number'),

  /** The subscription's first charge still due, whatever its date (a late one waiting for a retry too), or none. */
  firstDueOf: (db: Knex, subscription: { id: string; account_id: string }): Promise<ChargeRow | undefined> =>
    table(db)
      .where({ account_id: subscription.account_id, subscription_id: subscription.id, status: 'due' })
      .orderBy('charge_number')
      .first(),

  /**
   * A due charge skipped before any attempt to make it: only while no worker holds it and no payment
   * was started for it (a postponed one keeps its claim token), so a charge in flight is never half
   * skipped. 0 when it was taken first.
   */
  skipUntouched: (db: Knex, row: Pick<ChargeRow, 'id' | 'account_id'>, now: string) =>
    table(db)
      .where({ id: row.id, account_id: row.account_id, status: 'due', attempts: 0 })
      .whereNull('claim_token')
      .whereNull('payment_id')
      .update({ status: 'skipped', updated_at: now }),

  /** The subscription's skipped charges, in charge order. */
  skippedOf: (db: Knex, subscription: { id: string; account_id: string }) =>
    table(db).where({ account_id: subscription.account_id, subscription_id: subscription.id, status: 'skipped' }).orderBy('charge_number'),

  /**
   * Skipped charges made due again (a resume freed them): unclaimed, as if newly planned; the same rows, so the same payments' origin keys.
   */
  makeDueAgain: (db: Knex, accountId: string, ids: string[], now: string) =>
    table(db)
      .where({ account_id: accountId, status: 'skipped' })
      .whereIn('id', ids)
      .update({ status: 'due', claim_token: null, claimed_until: null, last_error: null, updated_at: now }),

  /** The payment a charge made settled: moves it on from `charged` (or `paid`, for a chargeback). */
  settle: (db: Knex, accountId: string, id: string, from: ChargeStatus[], changes: Partial<ChargeRow>) =>
    table(db).where({ account_id: accountId, id }).whereIn('status', from).update(changes),
};

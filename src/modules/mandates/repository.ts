import type { Knex } from 'knex';
import type { MandateMethod, MandateStatus } from '../../providers/types';
import { readRow } from '../../db/hotReads';

export interface MandateRow {
  id: string; // the provider's mandate id (mdt_…)
  account_id: string;
  customer_id: string;
  method: MandateMethod;
  status: MandateStatus;
  consumer_name: string | null;
  consumer_account: string | null;
  consumer_bic: string | null;
  card_holder: string | null;
  card_number: string | null; // last digits only
  card_expiry_date: string | null; // Y-m-d
  card_label: string | null;
  card_fingerprint: string | null;
  /** The SEPA reference; null for a card mandate that a first payment made. */
  mandate_reference: string | null;
  /** Whether the client chose the reference; MySQL reads it back as 1/0. */
  custom_reference: boolean | number;
  signature_date: string | null; // Y-m-d
  revoked_at: string | null;
  /**
   * How it came to us (migration 054): a first payment of ours, `POST …/mandates`, or an import (found or
   * made at the provider). Null: a row older than that we could not place. Absent in rows written before.
   */
  origin?: MandateOrigin | null;
  /** When the refresh-mandates job last asked the provider about it; null or absent: never. */
  checked_at?: string | null;
  created_at: string;
  updated_at: string;
}

export type MandateOrigin = 'first_payment' | 'api' | 'import';

const table = (db: Knex) => db<MandateRow>('mandates');

/**
 * The statuses of a subscription that is or will be charged on its mandate: what mandates need of a
 * subscription's status, declared here because subscriptions sit above mandates (the same words as
 * SubscriptionStatus there).
 */
export type SubscriptionInUseStatus = 'draft' | 'active' | 'paused';
const IN_USE_BY: readonly SubscriptionInUseStatus[] = ['draft', 'active', 'paused'];

export const mandatesRepository = {
  insert: (db: Knex, row: MandateRow) => table(db).insert(row),

  /**
   * The mandate holding a reference in the account, ignoring case: MySQL's collation compares
   * the unique key that way, so SQLite must answer the same.
   */
  findByReference: (db: Knex, accountId: string, reference: string) =>
    table(db).where('account_id', accountId).whereRaw('LOWER(mandate_reference) = ?', [reference.toLowerCase()]).first(),

  /** A mandate only when it belongs to this customer of this account; a hot read outside a transaction (db/hotReads). */
  findForCustomer: (db: Knex, accountId: string, customerId: string, id: string) =>
    readRow<MandateRow>(db, 'select * from `mandates` where `account_id` = ? and `customer_id` = ? and `id` = ? limit 1', [
      accountId,
      customerId,
      id,
    ]),

  /**
   * The mandates whose state at the provider matters now, across accounts, oldest checked first
   * (never checked before all): pending ones (they may have become valid), and valid ones that
   * subscriptions are or will be charged on (they may have been revoked) or that a takeover still waits
   * for: saved valid but not moved (a crash or a failed write between the two), nothing else would ever
   * move it and the old mandate would keep charging. None revoked here.
   */
  dueForRefresh: (db: Knex, limit: number): Promise<MandateRow[]> =>
    table(db)
      .whereNull('revoked_at')
      .andWhere((due) =>
        due.where('status', 'pending').orWhere((valid) =>
          valid.where('status', 'valid').andWhere((needed) =>
            needed
              .whereExists((used) =>
                used
                  .select(db.raw('1'))
                  .from('subscriptions')
                  .whereRaw('subscriptions.provider_mandate_id = mandates.id')
                  .whereRaw('subscriptions.account_id = mandates.account_id')
                  .whereIn('subscriptions.status', [...IN_USE_BY]),
              )
              .orWhereExists((waited) =>
                waited
                  .select(db.raw('1'))
                  .from('mandate_waiting_takeovers')
                  .whereRaw('mandate_waiting_takeovers.account_id = mandates.account_id')
                  .whereRaw('mandate_waiting_takeovers.mandate_id = mandates.id')
                  .whereNull('mandate_waiting_takeovers.moved_at'),
              ),
          ),
        ),
      )
      .orderBy([{ column: 'checked_at' }, { column: 'seq' }])
      .limit(limit),

  /** A mandate of the account, whichever customer's. */
  find: (db: Knex, accountId: string, id: string) => table(db).where({ account_id: accountId, id }).first(),

  /** The customer's mandates, oldest first. */
  listForCustomer: (db: Knex, accountId: string, customerId: string): Promise<MandateRow[]> =>
    table(db).where({ account_id: accountId, customer_id: customerId }).orderBy('seq'),

  /** The subscriptions that are or will be charged on the mandate (draft, active, paused). */
  subscriptionsUsing: (db: Knex, accountId: string, mandateId: string): Promise<Array<{ id: string; status: SubscriptionInUseStatus }>> =>
    db('subscriptions')
      .select('id', 'status')
      .where({ account_id: accountId, provider_mandate_id: mandateId })
      .whereIn('status', [...IN_USE_BY])
      .orderBy('id'),

  /** Marks it revoked (invalid) the first time only: 1 then, 0 when it was already. */
  markRevoked: (db: Knex, row: Pick<MandateRow, 'id' | 'account_id'>, now: string): Promise<number> =>
    table(db)
      .where({ id: row.id, account_id: row.account_id })
      .where((open) => open.whereNull('revoked_at').orWhereNot('status', 'invalid'))
      .update({ status: 'invalid', revoked_at: db.raw('COALESCE(revoked_at, ?)', [now]) as unknown as string, updated_at: now }),

  /** What the provider says of a mandate now, and when we asked. */
  update: (db: Knex, row: Pick<MandateRow, 'id' | 'account_id'>, changes: Partial<MandateRow>) =>
    table(db).where({ id: row.id, account_id: row.account_id }).update(changes),
};

import type { Knex } from 'knex';
import { readRow } from '../db/hotReads';

export type OutboundEventStatus = 'pending' | 'delivered' | 'dead';

export interface OutboundEventRow {
  id: string;
  account_id: string;
  /** The payment an event is about; null for events about subscriptions and follow-ups. */
  payment_id: string | null;
  /** What a non-payment event is about (sub_…, fu_…). */
  resource_id: string | null;
  event: string;
  payload: string;
  url: string;
  status: OutboundEventStatus;
  attempts: number;
  next_attempt_at: string | null;
  last_attempt_at: string | null;
  last_status_code: number | null;
  last_error: string | null;
  delivered_at: string | null;
  created_at: string;
}

const table = (db: Knex) => db<OutboundEventRow>('outbound_events');

export const outboundEventsRepository = {
  insert: (db: Knex, row: OutboundEventRow) => table(db).insert(row),

  /** A hot read outside a transaction (db/hotReads): every delivery attempt reads its event. */
  find: (db: Knex, id: string) => readRow<OutboundEventRow>(db, 'select * from `outbound_events` where `id` = ? limit 1', [id]),

  /**
   * Pending events whose next attempt is due, longest due first (a cross-account job query). Every
   * attempt, failed or thrown, moves next_attempt_at on, so an event that always fails goes to the
   * back and never keeps newer events out of a batch.
   */
  due: (db: Knex, now: string, limit: number) =>
    table(db)
      .where('status', 'pending')
      .andWhere('next_attempt_at', '<=', now)
      .orderBy([{ column: 'next_attempt_at' }, { column: 'seq' }])
      .limit(limit)
      .select('id'),

  /**
   * Claims one attempt: pushes next_attempt_at past the attempt's own timeout. Of two deliverers
   * (the job on two instances, or the job and the first immediate attempt) only one wins.
   */
  claim: (db: Knex, id: string, now: string, claimUntil: string) =>
    table(db).where({ id, status: 'pending' }).andWhere('next_attempt_at', '<=', now).update({ next_attempt_at: claimUntil }),

  update: (db: Knex, id: string, changes: Partial<OutboundEventRow>) => table(db).where({ id }).update(changes),

  forPayment: (db: Knex, accountId: string, paymentId: string) =>
    table(db).where({ account_id: accountId, payment_id: paymentId }).orderBy('seq', 'asc'),
};

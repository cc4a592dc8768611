import type { Knex } from 'knex';
import { isUniqueViolation } from '../../db/connect';
import { newId } from '../../ids';

/** What the store is told: an order paid, a payment that failed, a renewal order to make. */
export type ShopTaskKind = 'paid' | 'unpaid' | 'renewal';

export interface ShopTaskRow {
  id: string;
  account_id: string;
  order_id: string;
  kind: ShopTaskKind;
  payment_id: string | null;
  origin_key: string;
  status: 'pending' | 'done' | 'dead';
  attempts: number;
  next_attempt_at: string;
  last_error: string | null;
  done_at: string | null;
  created_at: string;
}

const table = (db: Knex) => db<ShopTaskRow>('shop_tasks');

export const shopTasksRepository = {
  /**
   * Queues a write to the store, once per origin key: a settlement seen twice queues nothing new.
   * Returns the task's id, or null when it was queued before.
   */
  enqueue: async (
    trx: Knex,
    task: Pick<ShopTaskRow, 'account_id' | 'order_id' | 'kind' | 'payment_id' | 'origin_key'>,
    now: string,
  ): Promise<string | null> => {
    if (await table(trx).where({ account_id: task.account_id, origin_key: task.origin_key }).first('id')) return null;
    const id = newId('stk');
    try {
      await table(trx).insert({
        ...task,
        id,
        status: 'pending',
        attempts: 0,
        next_attempt_at: now,
        last_error: null,
        done_at: null,
        created_at: now,
      });
    } catch (error) {
      if (isUniqueViolation(error)) return null;
      throw error;
    }
    return id;
  },

  find: (db: Knex, accountId: string, id: string) => table(db).where({ account_id: accountId, id }).first(),

  /**
   * Pending tasks whose time has come, longest due first, across accounts. A failed attempt moves a
   * task's next attempt on, so one that always fails goes to the back instead of heading every batch.
   */
  due: (db: Knex, now: string, limit: number) =>
    table(db)
      .where('status', 'pending')
      .andWhere('next_attempt_at', '<=', now)
      .orderBy([{ column: 'next_attempt_at' }, { column: 'seq' }])
      .limit(limit),

  /**
   * Takes a task for one attempt: counts the attempt and moves its next time on by `holdUntil`
   * before the store is called, if nobody took it first. Of two takers (the job, the first attempt
   * right after a settlement) one wins; a crash mid-call leaves an attempt counted, which the next
   * one sees (a renewal order then looks for the order it may have made).
   */
  take: async (db: Knex, task: ShopTaskRow, holdUntil: string): Promise<boolean> =>
    (await table(db)
      .where({ account_id: task.account_id, id: task.id, status: 'pending', attempts: task.attempts })
      .update({ attempts: task.attempts + 1, next_attempt_at: holdUntil })) === 1,

  done: (db: Knex, task: Pick<ShopTaskRow, 'account_id' | 'id'>, now: string) =>
    table(db).where({ account_id: task.account_id, id: task.id }).update({ status: 'done', done_at: now, last_error: null }),

  retryLater: (db: Knex, task: Pick<ShopTaskRow, 'account_id' | 'id'>, nextAttemptAt: string, error: string) =>
    table(db)
      .where({ account_id: task.account_id, id: task.id })
      .update({ next_attempt_at: nextAttemptAt, last_error: error.slice(0, 500) }),

  dead: (db: Knex, task: Pick<ShopTaskRow, 'account_id' | 'id'>, error: string) =>
    table(db)
      .where({ account_id: task.account_id, id: task.id })
      .update({ status: 'dead', last_error: error.slice(0, 500) }),

  ofOrder: (db: Knex, accountId: string, orderId: string) => table(db).where({ account_id: accountId, order_id: orderId }).orderBy('seq'),
};

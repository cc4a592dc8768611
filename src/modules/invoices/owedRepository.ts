import type { Knex } from 'knex';

/** An invoice a paid payment is owed, recorded with its status change; numbered and issued apart (migration 055). */
export interface OwedInvoiceRow {
  id: string;
  account_id: string;
  payment_id: string;
  /** The charge whose period the payment paid; null: the payment's own invoice (a link, an order, a follow-up). */
  charge_id: string | null;
  /** `<payment id>:<charge id>`: owed once. */
  owed_key: string;
  /** `owed` until issued; `done` once the invoice exists (or none was due after all). */
  status: 'owed' | 'done';
  attempts: number;
  next_attempt_at: string;
  last_error: string | null;
  /** `invoice.issue_failed` was sent for it (once). */
  failure_reported: boolean | number;
  created_at: string;
  updated_at: string;
}

const table = (db: Knex) => db<OwedInvoiceRow>('owed_invoices');

export const owedInvoicesRepository = {
  /** Writes the row once: a second settlement of the same payment and charge adds nothing. */
  insert: async (db: Knex, row: OwedInvoiceRow): Promise<void> => {
    await table(db).insert(row).onConflict('owed_key').ignore();
  },

  /**
   * Takes an owed row for issuing in the caller's transaction: an update that holds the row's lock
   * until it ends, so a second issuer waits and then finds it done. False when it is done already.
   */
  claim: async (trx: Knex.Transaction, id: string, now: string): Promise<boolean> =>
    (await table(trx).where({ id, status: 'owed' }).update({ updated_at: now })) > 0,

  markDone: (trx: Knex.Transaction, id: string, now: string) => table(trx).where({ id }).update({ status: 'done', updated_at: now }),

  recordFailure: (db: Knex, id: string, changes: Pick<OwedInvoiceRow, 'attempts' | 'next_attempt_at' | 'last_error' | 'updated_at'>) =>
    table(db).where({ id, status: 'owed' }).update(changes),

  /** Marks the failure reported; false when another process did it first (the event goes once). */
  markReported: async (trx: Knex.Transaction, id: string): Promise<boolean> =>
    (await table(trx).where({ id, failure_reported: false }).update({ failure_reported: true })) > 0,

  find: (db: Knex, id: string): Promise<OwedInvoiceRow | undefined> => table(db).where({ id }).first(),

  /** The payment's invoices still owed. */
  owedOfPayment: (db: Knex, accountId: string, paymentId: string): Promise<OwedInvoiceRow[]> =>
    table(db).where({ account_id: accountId, payment_id: paymentId, status: 'owed' }).orderBy('created_at'),

  /** Owed invoices whose next attempt is due, oldest first. */
  due: (db: Knex, now: string, limit: number): Promise<OwedInvoiceRow[]> =>
    table(db).where({ status: 'owed' }).where('next_attempt_at', '<=', now).orderBy('next_attempt_at').limit(limit),
};

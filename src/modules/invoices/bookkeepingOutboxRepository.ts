import type { Knex } from 'knex';

/**
 * A document on its way to the account's bookkeeping system (migration 049): unique by our reference (the
 * invoice's id, or the credit's own id). Its state shows on the invoice too (invoices.bookkeeping_status).
 */
export interface BookkeepingOutboxRow {
  id: string;
  account_id: string;
  /** The name of the system it goes to (the account's at the time it was queued). */
  system: string;
  kind: 'invoice' | 'credit';
  invoice_id: string;
  reference: string;
  credit_lines: string | null;
  credit_reason: 'refund' | 'chargeback' | null;
  /** The credit's lines are VAT-inclusive amounts (a partial refund): sent with inclusive prices. */
  credit_prices_incl_tax: boolean;
  status: 'pending' | 'sent' | 'failed';
  step: string;
  external_id: string | null;
  attempts: number;
  next_attempt_at: string;
  last_error: string | null;
  created_at: string;
  updated_at: string;
}

const outbox = (db: Knex) => db<BookkeepingOutboxRow>('bookkeeping_outbox');

export const bookkeepingOutboxRepository = {
  /** Writes the row once: a second one with the same reference adds nothing. */
  insertOnce: async (db: Knex, row: BookkeepingOutboxRow): Promise<void> => {
    await outbox(db).insert(row).onConflict('reference').ignore();
  },

  idOfReference: async (db: Knex, reference: string): Promise<string | null> =>
    (await outbox(db).where({ reference }).first('id'))?.id ?? null,

  /**
   * Counts an attempt before it is made, if the row is still as it was read (pending, with `attempts`); false when
   * another process took it first. Due again from the attempt's start, by the job's clock: should the process die
   * during the call, the next run looks the document up.
   */
  claim: async (db: Knex, row: Pick<BookkeepingOutboxRow, 'id' | 'attempts'>, now: string): Promise<boolean> =>
    (await outbox(db)
      .where({ id: row.id, attempts: row.attempts, status: 'pending' })
      .update({ attempts: row.attempts + 1, next_attempt_at: now, updated_at: now })) > 0,

  update: (db: Knex, id: string, changes: Partial<BookkeepingOutboxRow>) => outbox(db).where({ id }).update(changes),

  /**
   * Pending rows whose attempt is due, oldest first. A row never attempted is due whatever its time says: it was
   * queued with its document, by whichever clock made that (an account's test clock may run ahead of the job's).
   */
  due: (db: Knex, now: string, limit: number): Promise<BookkeepingOutboxRow[]> =>
    outbox(db)
      .where('status', 'pending')
      .andWhere((due) => due.where('attempts', 0).orWhere('next_attempt_at', '<=', now))
      .orderBy('created_at')
      .orderBy('id')
      .limit(limit),

  /**
   * The account's issued invoices waiting for a bookkeeping system (`pending`) with no outbox row yet: issued while
   * the account named a system this service has no adapter for, queued when it connects one.
   */
  waitingInvoicesOf: async (db: Knex, accountId: string): Promise<Array<{ id: string; account_id: string }>> =>
    db('invoices')
      .leftJoin('bookkeeping_outbox', 'bookkeeping_outbox.reference', 'invoices.id')
      .where({ 'invoices.account_id': accountId, 'invoices.bookkeeping_status': 'pending', 'invoices.status': 'issued' })
      .whereNull('bookkeeping_outbox.id')
      .orderBy('invoices.created_at')
      .orderBy('invoices.id')
      .select('invoices.id', 'invoices.account_id'),

  failedOfReference: (db: Knex, accountId: string, reference: string): Promise<BookkeepingOutboxRow | undefined> =>
    outbox(db).where({ account_id: accountId, reference, status: 'failed' }).first(),
};

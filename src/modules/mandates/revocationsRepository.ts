import type { Knex } from 'knex';

/** A mandate to revoke at the provider once the transaction that made it unused has committed. */
export interface MandateRevocationRow {
  account_id: string;
  mandate_id: string;
  customer_id: string;
  due_at: string;
  revoked_at: string | null;
  attempts: number;
  last_error: string | null;
  created_at: string;
}

const table = (db: Knex) => db<MandateRevocationRow>('mandate_revocations');

export const mandateRevocationsRepository = {
  /** Due now; recording it a second time (two takeovers leaving it unused) keeps the first row. */
  insertDue: async (db: Knex, row: Pick<MandateRevocationRow, 'account_id' | 'mandate_id' | 'customer_id'>, now: string) => {
    const existing = await table(db).where({ account_id: row.account_id, mandate_id: row.mandate_id }).first();
    if (existing) {
      await table(db)
        .where({ account_id: row.account_id, mandate_id: row.mandate_id })
        .update({ revoked_at: null, due_at: now, last_error: null });
      return;
    }
    await table(db).insert({ ...row, due_at: now, revoked_at: null, attempts: 0, last_error: null, created_at: now });
  },

  /** Not revoked yet and due, across accounts, the longest due first. */
  due: (db: Knex, now: string, limit: number) =>
    table(db)
      .whereNull('revoked_at')
      .andWhere('due_at', '<=', now)
      .orderBy([{ column: 'due_at' }, { column: 'mandate_id' }])
      .limit(limit),

  markDone: (db: Knex, mandate: { id: string; account_id: string }, now: string, note: string | null) =>
    table(db)
      .where({ account_id: mandate.account_id, mandate_id: mandate.id })
      .whereNull('revoked_at')
      .update({ revoked_at: now, last_error: note }),

  recordFailure: (db: Knex, row: Pick<MandateRevocationRow, 'account_id' | 'mandate_id' | 'attempts'>, error: string) =>
    table(db)
      .where({ account_id: row.account_id, mandate_id: row.mandate_id })
      .update({ attempts: row.attempts + 1, last_error: error }),
};

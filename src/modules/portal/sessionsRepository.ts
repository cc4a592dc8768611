import type { Knex } from 'knex';

export interface PortalSessionRow {
  id: string;
  account_id: string;
  customer_id: string;
  /** SHA-256 (hex) of the secret in the session cookie. */
  token_hash: string;
  /** The link that opened it. */
  opened_by_token_id: string | null;
  return_url: string | null;
  /** The locale the session was opened with; null: the customer's, else the browser's. */
  locale: string | null;
  /** Recorded at most once a minute; 30 minutes after it the session has ended. */
  last_seen_at: string;
  /** The end whatever the activity. */
  expires_at: string;
  ended_at: string | null;
  created_at: string;
}

const table = (db: Knex) => db<PortalSessionRow>('portal_sessions');

export const portalSessionsRepository = {
  insert: (db: Knex, row: PortalSessionRow) => table(db).insert(row),

  findByHash: (db: Knex, tokenHash: string): Promise<PortalSessionRow | undefined> => table(db).where({ token_hash: tokenHash }).first(),

  /** Records activity; the WHERE makes concurrent requests of one minute write once. */
  touch: (db: Knex, id: string, now: string, notBefore: string) =>
    table(db).where({ id }).whereNull('ended_at').andWhere('last_seen_at', '<=', notBefore).update({ last_seen_at: now }),

  end: (db: Knex, id: string, now: string) => table(db).where({ id }).whereNull('ended_at').update({ ended_at: now }),

  /** Ids of rows that expired at or before `cutoff`, oldest first: the purge's batch. */
  expiredBatch: (db: Knex, cutoff: string, limit: number): Promise<string[]> =>
    table(db).where('expires_at', '<=', cutoff).orderBy('expires_at').limit(limit).pluck('id'),

  deleteMany: (db: Knex, ids: string[]): Promise<number> => table(db).whereIn('id', ids).delete(),
};

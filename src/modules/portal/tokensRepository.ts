import type { Knex } from 'knex';

/** What a single-use portal link is for: opened from the merchant's site (API) or mailed by the log-in page. */
export type PortalTokenPurpose = 'session-link' | 'login-mail';

export interface PortalTokenRow {
  id: string;
  account_id: string;
  customer_id: string;
  /** SHA-256 (hex) of the token in the link; the token itself is never stored. */
  token_hash: string;
  purpose: PortalTokenPurpose;
  return_url: string | null;
  locale: string | null;
  expires_at: string;
  used_at: string | null;
  created_at: string;
}

const table = (db: Knex) => db<PortalTokenRow>('portal_tokens');

export const portalTokensRepository = {
  insert: (db: Knex, row: PortalTokenRow) => table(db).insert(row),

  /** By hash only: the token is the credential, whoever's it is. */
  findByHash: (db: Knex, tokenHash: string): Promise<PortalTokenRow | undefined> => table(db).where({ token_hash: tokenHash }).first(),

  /**
   * Marks the link used if it is still unused and unexpired; 1 when this call did, 0 otherwise. The
   * database decides, so of two uses at once exactly one opens a session.
   */
  claim: (db: Knex, id: string, now: string): Promise<number> =>
    table(db).where({ id }).whereNull('used_at').andWhere('expires_at', '>', now).update({ used_at: now }),

  /** Ids of rows that expired at or before `cutoff`, oldest first: the purge's batch. */
  expiredBatch: (db: Knex, cutoff: string, limit: number): Promise<string[]> =>
    table(db).where('expires_at', '<=', cutoff).orderBy('expires_at').limit(limit).pluck('id'),

  deleteMany: (db: Knex, ids: string[]): Promise<number> => table(db).whereIn('id', ids).delete(),
};

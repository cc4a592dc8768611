import type { Knex } from 'knex';

/** One Idempotency-Key of one account: who holds it, and what its request answered. */
export interface IdempotencyKeyRow {
  account_id: string;
  idempotency_key: string;
  request_hash: string;
  state: 'running' | 'done';
  /** While running: until when the request holds the key; after that a retry may take it over. */
  locked_until: string | null;
  /**
   * The fencing token of the request holding the key, new on every claim and take-over. Null on rows
   * kept before it existed.
   */
  lock_token?: string | null;
  /** What the request created (a payment, a customer, …): a retry resumes it. */
  resource_id: string | null;
  response_status: number | null;
  /** The exact text that was sent, so a replay is byte for byte the same. */
  response_body: string | null;
  created_at: string;
  expires_at: string;
}

/** The key's row as the request holding it took it. */
export type HeldKey = IdempotencyKeyRow & { lock_token: string };

const table = (db: Knex) => db<IdempotencyKeyRow>('idempotency_keys');

/** The key's row as long as `held` still holds it: after a take-over this matches nothing. */
const whileHeld = (db: Knex, held: HeldKey) =>
  table(db).where({ account_id: held.account_id, idempotency_key: held.idempotency_key, lock_token: held.lock_token });

export const idempotencyKeysRepository = {
  /** Fails on the primary key when the account has the key already. */
  insert: (db: Knex, row: IdempotencyKeyRow) => table(db).insert(row),

  find: (db: Knex, accountId: string, key: string) => table(db).where({ account_id: accountId, idempotency_key: key }).first(),

  /** Deletes the key only as it was read (this expiry): a fresh claim by a concurrent request keeps it. */
  deleteExpired: (db: Knex, held: Pick<IdempotencyKeyRow, 'account_id' | 'idempotency_key' | 'expires_at'>) =>
    table(db).where({ account_id: held.account_id, idempotency_key: held.idempotency_key, expires_at: held.expires_at }).delete(),

  /**
   * Takes over a running key whose lock has passed, with one conditional update on the row as it was
   * read (its holder's token and resource): of two retries only one gets it (1 changed row).
   */
  takeOver: (db: Knex, held: IdempotencyKeyRow, lock: Pick<HeldKey, 'locked_until' | 'lock_token'>) =>
    table(db)
      .where({ account_id: held.account_id, idempotency_key: held.idempotency_key, created_at: held.created_at, state: 'running' })
      .andWhere((holder) => (held.lock_token ? holder.where('lock_token', held.lock_token) : holder.whereNull('lock_token')))
      .andWhere((resource) =>
        held.resource_id === null ? resource.whereNull('resource_id') : resource.where('resource_id', held.resource_id),
      )
      .update({ locked_until: lock.locked_until, lock_token: lock.lock_token }),

  /** Records the resource the holding request made, once: 0 when the key is held by another, or has its resource. */
  recordResource: (db: Knex, held: HeldKey, resourceId: string) =>
    whileHeld(db, held).whereNull('resource_id').update({ resource_id: resourceId }),

  /** Changes the key while `held` still holds it: 0 after a take-over. */
  updateWhileHeld: (db: Knex, held: HeldKey, changes: Partial<IdempotencyKeyRow>) => whileHeld(db, held).update(changes),

  /** The oldest keys expired at `cutoff`, at most `limit`, across accounts. */
  expiredBatch: (db: Knex, cutoff: string, limit: number) =>
    table(db).where('expires_at', '<=', cutoff).orderBy('expires_at').limit(limit).select('account_id', 'idempotency_key'),

  /** Deletes these keys where they are still expired at `cutoff` (one taken again meanwhile stays); answers how many. */
  deleteStillExpired: (db: Knex, keys: Array<Pick<IdempotencyKeyRow, 'account_id' | 'idempotency_key'>>, cutoff: string) =>
    db('idempotency_keys')
      .whereIn(
        ['account_id', 'idempotency_key'],
        keys.map((row) => [row.account_id, row.idempotency_key]),
      )
      .andWhere('expires_at', '<=', cutoff)
      .delete(),
};

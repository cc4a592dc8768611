import type { Knex } from 'knex';
import { databaseNow, databaseNowPlus } from '../db/databaseTime';

/** A job's lease (see lease.ts): times from the database's clock only. */
interface JobLeaseRow {
  name: string;
  owner: string | null;
  expires_at: string | null;
  acquired_at: string | null;
  generation: number;
}

/** Which acquisition of a lease: its job, its holder and its generation. */
export interface LeaseHolder {
  name: string;
  owner: string;
  generation: number;
}

const leases = (db: Knex) => db<JobLeaseRow>('job_leases');

/**
 * Nobody holds it, or the holder's lease has expired (a crashed instance). Expiry is stored to the
 * second (truncated), so the lease counts as expired only once that whole second has passed: it
 * then lasts at least its length after the statement that took or renewed it.
 */
const isFree = (db: Knex) => (lease: Knex.QueryBuilder<JobLeaseRow>) =>
  lease.whereNull('owner').orWhereNull('expires_at').orWhere('expires_at', '<', databaseNow(db));

export const jobLeasesRepository = {
  /** Takes the lease if it is free, counting its generation up: 1 when taken, 0 when someone holds it. */
  takeIfFree: (db: Knex, name: string, owner: string, leaseSeconds: number) =>
    leases(db)
      .where({ name })
      .andWhere(isFree(db))
      .update({ owner, expires_at: databaseNowPlus(db, leaseSeconds), acquired_at: databaseNow(db), generation: db.raw('generation + 1') }),

  /** The generation of the lease while this owner holds it. */
  generationHeldBy: (db: Knex, name: string, owner: string) => leases(db).where({ name, owner }).first('generation'),

  /** The first lease of a job, taken as it is written (generation 1); fails on the key when it exists. */
  insertTaken: (db: Knex, name: string, owner: string, leaseSeconds: number) =>
    leases(db).insert({ name, owner, expires_at: databaseNowPlus(db, leaseSeconds), acquired_at: databaseNow(db), generation: 1 }),

  /** Extends the holder's lease: 1 while it holds it, 0 after a take-over. */
  renew: (db: Knex, { name, owner, generation }: LeaseHolder, leaseSeconds: number) =>
    leases(db)
      .where({ name, owner, generation })
      .update({ expires_at: databaseNowPlus(db, leaseSeconds) }),

  release: (db: Knex, { name, owner, generation }: LeaseHolder) =>
    leases(db).where({ name, owner, generation }).update({ owner: null, expires_at: null }),
};

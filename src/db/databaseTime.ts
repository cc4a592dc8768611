import type { Knex } from 'knex';
import type { Dialect } from './connect';

/**
 * "Now" as the database sees it, for values several instances compare with each other (leases):
 * one clock for all of them, so a skewed server clock cannot make two of them agree they both hold
 * something. Both give `YYYY-MM-DD HH:MM:SS` in UTC, truncated to the second, like our DATETIME columns.
 */

/** The dialect of a knex instance itself: its DATABASE_URL is not at hand where a query is built. */
function dialectOfKnex(db: Knex): Dialect {
  const { client } = (db.client as Knex.Client).config;
  if (client === 'mysql2') return 'mysql';
  if (client === 'better-sqlite3') return 'sqlite';
  throw new Error(`database time is not known for knex client ${String(client)}`);
}

export function databaseNow(db: Knex): Knex.Raw {
  return dialectOfKnex(db) === 'mysql' ? db.raw('UTC_TIMESTAMP()') : db.raw("datetime('now')");
}

/** The database's now plus a whole number of seconds (≥ 0). */
export function databaseNowPlus(db: Knex, seconds: number): Knex.Raw {
  if (!Number.isInteger(seconds) || seconds < 0) throw new RangeError(`expected whole seconds ≥ 0, got ${seconds}`);
  return dialectOfKnex(db) === 'mysql'
    ? db.raw('DATE_ADD(UTC_TIMESTAMP(), INTERVAL ? SECOND)', [seconds])
    : db.raw("datetime('now', ?)", [`+${seconds} seconds`]);
}

import { mkdirSync } from 'node:fs';
import path from 'node:path';
import knex, { type Knex } from 'knex';
import type { Logger } from '../logger';
import { attachSqliteReader } from './hotReads';
import { errorMessage } from '../errors';

export type Dialect = 'sqlite' | 'mysql';

export function dialectOf(databaseUrl: string): Dialect {
  return databaseUrl.startsWith('mysql://') ? 'mysql' : 'sqlite';
}

/** knex's own warnings go through our logger as JSON lines, not as raw stacks on the console. */
function knexLog(logger: Logger): Knex.Config['log'] {
  const line = (level: 'warn' | 'error' | 'debug') => (message: unknown) =>
    logger.log(level, 'database', { detail: errorMessage(message) });
  return { warn: line('warn'), error: line('error'), deprecate: line('warn'), debug: line('debug') };
}

/**
 * Without this knex writes a failed query's bound values (e-mail addresses, IBANs) into the error
 * message, and error messages reach our logs; with it the message shows `?` placeholders.
 */
const KEEP_VALUES_OUT_OF_ERRORS = { compileSqlOnError: false } as const;

/** The one knex instance for a DATABASE_URL (`sqlite:<path>` or `mysql://…`). */
export function connectDatabase(databaseUrl: string, logger: Logger): Knex {
  const log = knexLog(logger);
  if (dialectOf(databaseUrl) === 'mysql') {
    return knex({
      log,
      ...KEEP_VALUES_OUT_OF_ERRORS,
      client: 'mysql2',
      connection: {
        uri: databaseUrl,
        // We store and read UTC as plain strings; no driver-side time zone shifting.
        timezone: 'Z',
        dateStrings: true,
        supportBigNumbers: true,
        bigNumberStrings: false,
        charset: 'utf8mb4',
      } as Knex.MySql2ConnectionConfig,
      pool: { min: 0, max: 10 },
    });
  }
  const filename = databaseUrl.slice('sqlite:'.length);
  if (filename !== ':memory:') mkdirSync(path.dirname(path.resolve(filename)), { recursive: true });
  const db = knex({
    log,
    ...KEEP_VALUES_OUT_OF_ERRORS,
    client: 'better-sqlite3',
    connection: { filename },
    useNullAsDefault: true,
    pool: {
      min: 1,
      max: 1,
      afterCreate(connection: SqliteConnection, done: (error: Error | null, connection: unknown) => void) {
        connection.pragma('journal_mode = WAL');
        connection.pragma('foreign_keys = ON');
        connection.pragma('busy_timeout = 5000');
        cacheStatements(connection);
        done(null, connection);
      },
    },
  });
  return attachSqliteReader(db, filename);
}

interface SqliteConnection {
  pragma(source: string): unknown;
  prepare(sql: string): unknown;
}

/**
 * Distinct statements kept prepared, least recently used dropped first. The hot shapes are a few
 * dozen; `whereIn` lists and batch inserts of every length are shapes too, and a prepared statement
 * holds memory, so the cache stays small.
 */
const STATEMENT_CACHE_SIZE = 200;

/**
 * knex prepares every statement anew; SQLite's compilation was a sixth of a list request. The one
 * connection keeps its prepared statements by SQL text (values are bound, so the text is the shape).
 * Safe because better-sqlite3 runs each statement to completion synchronously, and re-prepares it
 * itself when the schema changes.
 */
function cacheStatements(connection: SqliteConnection): void {
  const prepare = connection.prepare.bind(connection);
  const prepared = new Map<string, unknown>();
  connection.prepare = (sql: string) => {
    let statement = prepared.get(sql);
    if (statement === undefined) {
      statement = prepare(sql);
      if (prepared.size >= STATEMENT_CACHE_SIZE) prepared.delete(prepared.keys().next().value as string);
    } else {
      prepared.delete(sql); // re-inserted below: the Map's order is the order of use
    }
    prepared.set(sql, statement);
    return statement;
  };
}

/** True when an error is a unique-key violation: the database saying "already done". */
export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const code = (error as { code?: unknown }).code;
  return code === 'ER_DUP_ENTRY' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/**
 * The database's own code when an error is the database refusing one statement (a value too long, a
 * constraint, a trigger): SQLite's `SQLITE_…`, MySQL's `ER_…` with its SQL state. Null for anything
 * else — a lost connection is no row's fault.
 */
export function databaseRefusalCode(error: unknown): string | null {
  if (typeof error !== 'object' || error === null) return null;
  const { code, sqlState } = error as { code?: unknown; sqlState?: unknown };
  if (typeof code !== 'string') return null;
  if (code.startsWith('SQLITE_') && code !== 'SQLITE_BUSY' && code !== 'SQLITE_IOERR') return code;
  if (code.startsWith('ER_') && typeof sqlState === 'string' && !sqlState.startsWith('08')) return code;
  return null;
}

/** The cheapest statement that needs the database to answer: the health check's. */
export async function pingDatabase(db: Knex): Promise<void> {
  await db.raw('select 1');
}

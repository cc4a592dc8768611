import { mkdirSync } from 'node:fs';
import path from 'node:path';
import knex, { type Knex } from 'knex';

export type Dialect = 'sqlite' | 'mysql';

export function dialectOf(databaseUrl: string): Dialect {
  return databaseUrl.startsWith('mysql://') ? 'mysql' : 'sqlite';
}

/** The one knex instance for a DATABASE_URL (`sqlite:<path>` or `mysql://…`). */
export function connectDatabase(databaseUrl: string): Knex {
  if (dialectOf(databaseUrl) === 'mysql') {
    return knex({
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
  return knex({
    client: 'better-sqlite3',
    connection: { filename },
    useNullAsDefault: true,
    pool: {
      min: 1,
      max: 1,
      afterCreate(connection: { pragma(source: string): unknown }, done: (error: Error | null, connection: unknown) => void) {
        connection.pragma('journal_mode = WAL');
        connection.pragma('foreign_keys = ON');
        connection.pragma('busy_timeout = 5000');
        done(null, connection);
      },
    },
  });
}

/** True when an error is a unique-key violation: the database saying "already done". */
export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const code = (error as { code?: unknown }).code;
  return code === 'ER_DUP_ENTRY' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

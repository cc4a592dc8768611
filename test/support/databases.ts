import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import knex, { type Knex } from 'knex';
import { copyMigratedTemplate, databaseUrl } from './mysqlTemplate';

export type TestDatabaseKind = 'sqlite' | 'mysql';

/** SQLite always; MySQL/MariaDB too when TEST_MYSQL_URL is set (as in CI). */
export const TEST_DATABASES: TestDatabaseKind[] = process.env.TEST_MYSQL_URL ? ['sqlite', 'mysql'] : ['sqlite'];

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

/** MariaDB's "can't rmdir … Directory not empty" (ER_DB_DROP_RMDIR): a file of the database is still being let go. */
const DROP_RMDIR = 1010;

/**
 * Drops a test database. Under load MariaDB may refuse while it still releases one of the database's
 * files (errno 39); it drops it a moment later. A database that still cannot be dropped is left behind
 * with a warning: its name is unique to this run, and cleaning up is not what the test tests.
 */
async function dropDatabase(admin: Knex, name: string): Promise<void> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      await admin.raw('DROP DATABASE IF EXISTS ??', [name]);
      return;
    } catch (error) {
      if ((error as { errno?: number }).errno !== DROP_RMDIR) throw error;
      if (attempt === 5) {
        console.warn(`test database ${name} left behind: ${(error as Error).message}`);
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 250 * attempt));
    }
  }
}

/**
 * A fresh database of its own for one test file, so parallel runs never collide: empty, or with
 * `migrated` on MySQL a copy of a migrated template (mysqlTemplate.ts). SQLite migrates in a fifth of
 * a second: there the app that opens the database migrates it.
 */
export async function createTestDatabase(kind: TestDatabaseKind, { migrated = false } = {}): Promise<TestDatabase> {
  if (kind === 'sqlite') {
    const dir = mkdtempSync(path.join(tmpdir(), 'rps-test-'));
    return { url: `sqlite:${path.join(dir, 'test.sqlite')}`, drop: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  const serverUrl = new URL(process.env.TEST_MYSQL_URL ?? '');
  const name = `rps_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = knex({
    client: 'mysql2',
    connection: { uri: serverUrl.toString(), multipleStatements: true } as never,
    pool: { min: 0, max: 1 },
  });
  await admin.raw('CREATE DATABASE ?? CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci', [name]);
  try {
    if (migrated) await copyMigratedTemplate(admin, serverUrl, name);
  } catch (error) {
    await dropDatabase(admin, name).finally(() => admin.destroy());
    throw error;
  }
  return {
    url: databaseUrl(serverUrl, name),
    drop: async () => {
      try {
        await dropDatabase(admin, name);
      } finally {
        await admin.destroy();
      }
    },
  };
}

import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import knex from 'knex';

export type TestDatabaseKind = 'sqlite' | 'mysql';

/** SQLite always; MySQL/MariaDB too when TEST_MYSQL_URL is set (as in CI). */
export const TEST_DATABASES: TestDatabaseKind[] = process.env.TEST_MYSQL_URL ? ['sqlite', 'mysql'] : ['sqlite'];

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

/** A fresh, empty database of its own for one test file, so parallel runs never collide. */
export async function createTestDatabase(kind: TestDatabaseKind): Promise<TestDatabase> {
  if (kind === 'sqlite') {
    const dir = mkdtempSync(path.join(tmpdir(), 'rps-test-'));
    return { url: `sqlite:${path.join(dir, 'test.sqlite')}`, drop: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  const serverUrl = new URL(process.env.TEST_MYSQL_URL ?? '');
  const name = `rps_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = knex({ client: 'mysql2', connection: { uri: serverUrl.toString() } as never, pool: { min: 0, max: 1 } });
  await admin.raw('CREATE DATABASE ?? CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci', [name]);
  const url = new URL(serverUrl.toString());
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      await admin.raw('DROP DATABASE IF EXISTS ??', [name]);
      await admin.destroy();
    },
  };
}

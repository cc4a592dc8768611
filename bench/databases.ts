import { randomBytes } from 'node:crypto';
import path from 'node:path';
import knex from 'knex';

export interface BenchDatabase {
  kind: 'sqlite' | 'mysql';
  url: string;
  drop(): Promise<void>;
}

/** A fresh database for one case: a SQLite file in `dir`, or a new database on BENCH_MYSQL_URL's server. */
export async function benchDatabase(kind: BenchDatabase['kind'], dir: string): Promise<BenchDatabase> {
  if (kind === 'sqlite') return { kind, url: `sqlite:${path.join(dir, 'bench.sqlite')}`, drop: async () => {} };
  const server = process.env.BENCH_MYSQL_URL;
  if (!server) throw new Error('BENCH_MYSQL_URL is not set');
  const name = `rps_bench_${randomBytes(4).toString('hex')}`;
  const admin = knex({ client: 'mysql2', connection: { uri: server } as never, pool: { min: 0, max: 1 } });
  await admin.raw('CREATE DATABASE ?? CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci', [name]);
  const url = new URL(server);
  url.pathname = `/${name}`;
  return {
    kind,
    url: url.toString(),
    async drop() {
      await admin.raw('DROP DATABASE IF EXISTS ??', [name]);
      await admin.destroy();
    },
  };
}

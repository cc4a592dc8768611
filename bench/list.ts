import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createContext } from '../src/bootstrap';
import { loadConfig } from '../src/config';
import { createLogger } from '../src/logger';
import { createToken } from '../src/modules/accounts/service';
import type { CustomerRow } from '../src/modules/customers/repository';
import { systemClock, toDbDateTime } from '../src/time';
import { CEILING_SCRIPT, load, round2, SERVER_SCRIPT, whileRunning, type Load } from './http';
import { benchDatabase, type BenchDatabase } from './databases';
import { benchCustomer } from './rows';

export interface ListBenchResult {
  case: 'list';
  database: string;
  customers: number;
  connections: number;
  deepPage: number;
  page1: Load;
  deep: Load;
  ceiling: Load;
  /** page 1 over the ceiling (target ≥ 0.5) and the deep page over page 1 (target ≥ 0.8). */
  page1Ratio: number;
  deepRatio: number;
  target: string;
}

export const APP_KEY = 'base64:MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=';

/** One account with `count` customers, written in bulk; answers its token. */
export async function seedCustomers(databaseUrl: string, dir: string, count: number): Promise<{ token: string; accountId: string }> {
  const { config } = loadConfig({
    NODE_ENV: 'production',
    DATABASE_URL: databaseUrl,
    DATA_DIR: dir,
    APP_KEY,
    LOG_LEVEL: 'warn',
    PUBLIC_URL: 'https://rps.example',
  });
  const { ctx } = await createContext(config, createLogger('warn'));
  try {
    const { account, token } = await createToken(ctx.db, systemClock, 'Bench');
    const stamp = toDbDateTime(new Date());
    for (let start = 0; start < count; start += 500) {
      const rows: CustomerRow[] = [];
      for (let index = start; index < Math.min(count, start + 500); index += 1) {
        rows.push(benchCustomer(account.id, index, stamp));
      }
      await ctx.db.batchInsert('customers', rows, 500);
    }
    return { token, accountId: account.id };
  } finally {
    await Promise.all([ctx.db.destroy(), ctx.rateLimits.close()]);
  }
}

/** The environment the built service runs with in the HTTP cases. */
export const serviceEnv = (databaseUrl: string, dir: string): Record<string, string> => ({
  NODE_ENV: 'production',
  DATABASE_URL: databaseUrl,
  DATA_DIR: dir,
  APP_KEY,
  PUBLIC_URL: 'https://rps.example',
  LOG_LEVEL: 'warn',
  CRON: 'off',
  RATE_LIMIT_PER_MINUTE: '100000',
  SANDBOX: 'on',
});

/**
 * `GET /api/v2/customers` page 1 and a page at 90 % depth of `count` customers, `connections` at once,
 * against the built service; the ceiling is bare express answering page 1's JSON in the same run.
 */
export async function benchList(options: {
  count: number;
  connections: number;
  seconds: number;
  database: BenchDatabase['kind'];
}): Promise<ListBenchResult> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'rps-bench-list-'));
  const database = await benchDatabase(options.database, dir);
  try {
    const { token } = await seedCustomers(database.url, dir, options.count);
    const deepPage = Math.ceil((options.count * 0.9) / 15);
    const headers = { Authorization: `Bearer ${token}` };
    const measured = await whileRunning(SERVER_SCRIPT, serviceEnv(database.url, dir), async (url) => ({
      body: await (await fetch(`${url}/api/v2/customers?page=1`, { headers })).text(),
      page1: await load({ url: `${url}/api/v2/customers?page=1`, connections: options.connections, seconds: options.seconds, headers }),
      deep: await load({
        url: `${url}/api/v2/customers?page=${deepPage}`,
        connections: options.connections,
        seconds: options.seconds,
        headers,
      }),
    }));
    const { page1, deep } = measured;
    const ceiling = await whileRunning(CEILING_SCRIPT, { CEILING_BODY: measured.body }, (url) =>
      load({ url: `${url}/api/v2/customers?page=1`, connections: options.connections, seconds: options.seconds }),
    );
    return {
      case: 'list',
      database: options.database,
      customers: options.count,
      connections: options.connections,
      deepPage,
      page1,
      deep,
      ceiling,
      page1Ratio: round2(page1.requestsPerSecond / ceiling.requestsPerSecond),
      deepRatio: round2(deep.requestsPerSecond / page1.requestsPerSecond),
      target: 'page 1 ≥ 0.5 × ceiling; deep page ≥ 0.8 × page 1; p99 < 50 ms',
    };
  } finally {
    await database.drop();
    rmSync(dir, { recursive: true, force: true });
  }
}

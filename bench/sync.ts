import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createContext } from '../src/bootstrap';
import { loadConfig } from '../src/config';
import { encryptSecret } from '../src/crypto/secrets';
import { newId, randomBase62 } from '../src/ids';
import { createLogger } from '../src/logger';
import type { Account } from '../src/modules/accounts/account';
import { startSync } from '../src/modules/store/syncService';
import { STORE_BUDGET } from '../src/integrations/woocommerce/client';
import { toDbDateTime } from '../src/time';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { benchDatabase, type BenchDatabase } from './databases';
import { APP_KEY } from './list';
import { peakRssSampler } from './memory';

export interface SyncBenchResult {
  case: 'sync';
  database: string;
  orders: number;
  /** Milliseconds of the sync per order. */
  perItemMs: number;
  pages: number;
  parallelism: number;
  storeLatencyMs: number;
  seconds: number;
  ceilingSeconds: number;
  /** Measured time over the ceiling: 1.0 is as fast as the store's latency allows. */
  ratio: number;
  peakRssMb: number;
  target: string;
}

const PAGE_SIZE = 100;

/** The simulator with `orders` orders in its own process (bench/storeSimulatorServer.ts). */
async function startStore(orders: number, latencyMs: number) {
  const child = spawn(process.execPath, [path.resolve(__dirname, 'storeSimulatorServer.js')], {
    env: { ...process.env, BENCH_STORE_ORDERS: String(orders), BENCH_STORE_LATENCY_MS: String(latencyMs) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const firstLine = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', resolve);
    child.once('exit', () => reject(new Error('the store simulator stopped')));
  });
  const store = JSON.parse(firstLine) as { url: string; consumerKey: string; consumerSecret: string };
  return {
    ...store,
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/**
 * A full order sync of `count` orders from the wc/v3 simulator (its own process, real HTTP on loopback,
 * OAuth 1.0a) answering each request after `latencyMs`. The ceiling is what the store's latency allows with the
 * per-store budget's parallelism: (1 + the other pages ÷ parallelism, rounded up) × latency.
 */
export async function benchSync(options: { count: number; latencyMs: number; database: BenchDatabase['kind'] }): Promise<SyncBenchResult> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'rps-bench-sync-'));
  const database = await benchDatabase(options.database, dir);
  const store = await startStore(options.count, options.latencyMs);
  try {
    const { config } = loadConfig({
      NODE_ENV: 'production',
      DATABASE_URL: database.url,
      DATA_DIR: dir,
      APP_KEY,
      LOG_LEVEL: 'warn',
      PUBLIC_URL: 'https://rps.example',
      OUTBOUND_ALLOW_PRIVATE: 'on',
    });
    const { ctx } = await createContext(config, createLogger('warn'));
    const stamp = toDbDateTime(new Date());
    const account: Account = { id: newId('acc'), name: 'Bench', public_ref: randomBase62(20), bookkeeping_system: null };
    await ctx.db('accounts').insert({ ...account, created_at: stamp, updated_at: stamp });
    await ctx.db('shops').insert({
      id: newId('shp'),
      account_id: account.id,
      platform: 'woocommerce',
      url: store.url,
      consumer_key: store.consumerKey,
      consumer_secret_encrypted: encryptSecret(config.appKey, store.consumerSecret),
      webhook_secret_encrypted: encryptSecret(config.appKey, randomBase62(32)),
      webhook_ids: null,
      webhooks_state: 'not_reachable',
      webhooks_error: null,
      status: 'connected',
      products_cursor: null,
      orders_cursor: null,
      connected_at: stamp,
      created_at: stamp,
      updated_at: stamp,
    });

    const rss = peakRssSampler();
    const started = process.hrtime.bigint();
    const run = await startSync(ctx, account, 'orders', true);
    await ctx.background.idle();
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const peakRssMb = rss.stop();
    const finished = await ctx.db('sync_runs').where({ id: run.id }).first();
    if (finished.status !== 'succeeded' || Number(finished.created) !== options.count) {
      throw new Error(
        `sync bench: expected ${options.count} orders created, run ${finished.status} with ${finished.created} (${finished.errors})`,
      );
    }
    await ctx.db.destroy();
    const pages = Math.ceil(options.count / PAGE_SIZE);
    // The first page says how many there are; the rest go `concurrency` at a time.
    const ceilingSeconds = (1 + Math.ceil((pages - 1) / STORE_BUDGET.concurrency)) * (options.latencyMs / 1000);
    return {
      case: 'sync',
      database: options.database,
      orders: options.count,
      perItemMs: Number(((seconds * 1000) / options.count).toFixed(3)),
      pages,
      parallelism: STORE_BUDGET.concurrency,
      storeLatencyMs: options.latencyMs,
      seconds: Number(seconds.toFixed(2)),
      ceilingSeconds,
      ratio: Number((seconds / ceilingSeconds).toFixed(2)),
      peakRssMb,
      target: '≤ 1.25 × the ceiling; flat peak RSS',
    };
  } finally {
    await store.stop();
    await database.drop();
    rmSync(dir, { recursive: true, force: true });
  }
}

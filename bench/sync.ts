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
import { WooSimulator } from '../fakes/woocommerce/simulator';
import { APP_KEY } from './list';

export interface SyncBenchResult {
  case: 'sync';
  orders: number;
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

/**
 * A full order sync of `count` orders from the wc/v3 simulator (real HTTP on loopback, OAuth 1.0a)
 * answering each request after `latencyMs`. The ceiling is what the store's latency allows with the
 * per-store budget's parallelism: pages ÷ parallelism × latency.
 */
export async function benchSync(options: { count: number; latencyMs: number }): Promise<SyncBenchResult> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'rps-bench-sync-'));
  const store = new WooSimulator();
  try {
    const { config } = loadConfig({
      NODE_ENV: 'production',
      DATABASE_URL: `sqlite:${path.join(dir, 'bench.sqlite')}`,
      DATA_DIR: dir,
      APP_KEY,
      LOG_LEVEL: 'warn',
      PUBLIC_URL: 'https://rps.example',
      OUTBOUND_ALLOW_PRIVATE: 'on',
    });
    const { ctx } = await createContext(config, createLogger('warn'));
    await store.start();
    store.addOrders(options.count);
    store.latencyMs = options.latencyMs;
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

    let peakRss = process.memoryUsage().rss;
    const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 50);
    const started = process.hrtime.bigint();
    const run = await startSync(ctx, account, 'orders', true);
    await ctx.background.idle();
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    clearInterval(sampler);
    const finished = await ctx.db('sync_runs').where({ id: run.id }).first();
    if (finished.status !== 'succeeded' || Number(finished.created) !== options.count) {
      throw new Error(
        `sync bench: expected ${options.count} orders created, run ${finished.status} with ${finished.created} (${finished.errors})`,
      );
    }
    await ctx.db.destroy();
    const pages = Math.ceil(options.count / PAGE_SIZE);
    const ceilingSeconds = (pages / STORE_BUDGET.concurrency) * (options.latencyMs / 1000);
    return {
      case: 'sync',
      orders: options.count,
      pages,
      parallelism: STORE_BUDGET.concurrency,
      storeLatencyMs: options.latencyMs,
      seconds: Number(seconds.toFixed(2)),
      ceilingSeconds,
      ratio: Number((seconds / ceilingSeconds).toFixed(2)),
      peakRssMb: Math.round(peakRss / 1024 / 1024),
      target: '≤ 1.25 × the ceiling',
    };
  } finally {
    await store.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

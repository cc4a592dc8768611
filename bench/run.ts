import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { benchBilling } from './billing';
import { benchCreate } from './create';
import type { Load } from './http';
import { benchList } from './list';
import { benchSync } from './sync';
import { benchWebhooks } from './webhooks';

const loadText = (load: Load) => `${load.requestsPerSecond} req/s, p99 ${load.p99Ms} ms${load.non2xx || load.errors ? ` (${load.non2xx} non-2xx, ${load.errors} errors)` : ''}`;

/**
 * `npm run bench`: measurements, not tests. Prints each case beside its ceiling and writes
 * bench/results/latest.json. Cases are chosen with BENCH_CASES (comma-separated; default all);
 * BENCH_LIST_CUSTOMERS sizes the list case, BENCH_WEBHOOK_CALLS the webhooks case, BENCH_SECONDS each HTTP load, BENCH_MYSQL_URL adds MySQL
 * to the HTTP cases, BENCH_BILLING_SUBSCRIPTIONS sizes the billing case, BENCH_SYNC_ORDERS the sync
 * case, BENCH_COUNT_STATEMENTS=1 prints the SQL statements per charge.
 */
async function main(): Promise<void> {
  const cases = (process.env.BENCH_CASES ?? 'list,create,billing,sync,webhooks').split(',').map((name) => name.trim());
  // MySQL beside SQLite for the HTTP cases when BENCH_MYSQL_URL names a server.
  const databases = process.env.BENCH_MYSQL_URL ? (['sqlite', 'mysql'] as const) : (['sqlite'] as const);
  const seconds = Number(process.env.BENCH_SECONDS ?? 10);
  const results = [];
  if (cases.includes('list')) {
    for (const database of databases) {
      const result = await benchList({ count: Number(process.env.BENCH_LIST_CUSTOMERS ?? 100_000), connections: 32, seconds, database });
      results.push(result);
      console.log(
        `list (${database}): ${result.customers} customers, ${result.connections} connections: page 1 ${loadText(result.page1)}; page ${result.deepPage} ${loadText(result.deep)}; ` +
          `ceiling ${loadText(result.ceiling)}; page 1/ceiling ${result.page1Ratio}, deep/page 1 ${result.deepRatio} (target ${result.target})`,
      );
    }
  }
  if (cases.includes('create')) {
    for (const database of databases) {
      const result = await benchCreate({ connections: 16, seconds, database });
      results.push(result);
      console.log(`create (${database}): ${result.connections} connections: ${loadText(result.create)}; ceiling ${loadText(result.ceiling)}; ratio ${result.ratio} (target ${result.target})`);
    }
  }
  if (cases.includes('billing')) {
    const count = Number(process.env.BENCH_BILLING_SUBSCRIPTIONS ?? 10_000);
    const concurrency = Number(process.env.BILLING_CONCURRENCY ?? 8);
    const result = await benchBilling({ count, latencyMs: 50, concurrency });
    results.push(result);
    console.log(
      `billing: ${result.subscriptions} due subscriptions, provider answering after ${result.providerLatencyMs} ms, concurrency ${result.concurrency}: ` +
        `${result.chargesPerSecond} charges/s in ${result.seconds} s; ceiling ${result.ceilingPerSecond}/s; ratio ${result.ratio}; peak RSS ${result.peakRssMb} MB (target ${result.target})`,
    );
  }
  if (cases.includes('sync')) {
    const result = await benchSync({ count: Number(process.env.BENCH_SYNC_ORDERS ?? 10_000), latencyMs: 200 });
    results.push(result);
    console.log(
      `sync: full order sync of ${result.orders} orders (${result.pages} pages), store answering after ${result.storeLatencyMs} ms, ${result.parallelism} at once: ` +
        `${result.seconds} s; ceiling ${result.ceilingSeconds} s; ratio ${result.ratio} (target ${result.target}); peak RSS ${result.peakRssMb} MB`,
    );
  }
  if (cases.includes('webhooks')) {
    for (const database of databases) {
      const result = await benchWebhooks({ calls: Number(process.env.BENCH_WEBHOOK_CALLS ?? 1000), database });
      results.push(result);
      console.log(
        `webhooks (${database}): ${result.calls} Mollie calls posted at once: ${result.answered200} answered 200, p99 ${result.answerP99Ms} ms; ` +
          `all processed in ${result.processedSeconds} s; ${result.lost} lost (target ${result.target})`,
      );
    }
  }
  const machine = { cpus: os.cpus().length, cpu: os.cpus()[0]?.model ?? 'unknown', memoryGb: Math.round(os.totalmem() / 1024 ** 3), node: process.version, platform: `${os.platform()} ${os.release()}` };
  const dir = path.resolve(__dirname, '../../bench/results');
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'latest.json'), `${JSON.stringify({ date: new Date().toISOString(), machine, results }, null, 2)}\n`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.stack : error);
  process.exitCode = 1;
});

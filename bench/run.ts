import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { benchBilling } from './billing';
import { benchCreate } from './create';
import type { Load } from './http';
import { benchFilteredList } from './filteredList';
import { benchList } from './list';
import { benchSync } from './sync';
import { benchWebhooks } from './webhooks';

const loadText = (load: Load) =>
  `${load.requestsPerSecond} req/s, p99 ${load.p99Ms} ms` +
  (load.non2xx || load.errors ? ` (${load.non2xx} non-2xx, ${load.errors} errors)` : '');

type Database = 'sqlite' | 'mysql';
const CASES = ['list', 'filtered', 'create', 'billing', 'sync', 'webhooks'] as const;
type CaseName = (typeof CASES)[number];

/**
 * The jobs that grow with a shop: measured at each of BENCH_SIZES (default 1,000, 10,000 and 100,000
 * subscriptions, orders, rows; a webhook burst is a tenth of each), to see their cost per item stay
 * flat. The others run once, at their own size.
 */
const SCALED: ReadonlySet<CaseName> = new Set(['filtered', 'billing', 'sync', 'webhooks']);
const DEFAULT_SIZES = '1000,10000,100000';
/** The items of a case at a size: a burst of webhook calls is a tenth of the size. */
const itemsAt = (name: CaseName, size: number) => (name === 'webhooks' ? Math.max(1, Math.round(size / 10)) : size);

/** A scaled case is always run at a size (main gives it). */
const sizeOf = (size: number | null): number => {
  if (size === null) throw new Error('a scaled case runs at a size of BENCH_SIZES');
  return size;
};

/** A scaled case's figures at one size. */
interface ScaledResult {
  database: string;
  perItemMs: number;
  peakRssMb: number | null;
}

/** One case on one database (at `size` for a scaled case), printed as a line; returns what goes into latest.json. */
async function runCase(name: CaseName, database: Database, size: number | null): Promise<object> {
  const seconds = Number(process.env.BENCH_SECONDS ?? 10);
  switch (name) {
    case 'list': {
      const result = await benchList({ count: Number(process.env.BENCH_LIST_CUSTOMERS ?? 100_000), connections: 32, seconds, database });
      console.log(
        `list (${database}): ${result.customers} customers, ` +
          `${result.connections} connections: page 1 ${loadText(result.page1)}; page ${result.deepPage} ${loadText(result.deep)}; ` +
          (`ceiling ${loadText(result.ceiling)}; page 1/ceiling ` +
            `${result.page1Ratio}, deep/page 1 ${result.deepRatio} (target ${result.target})`),
      );
      return result;
    }
    case 'filtered': {
      const result = await benchFilteredList({
        count: sizeOf(size),
        connections: 32,
        seconds,
        database,
      });
      console.log(
        `filtered (${database}): ${result.subscriptions} subscriptions and ${result.payments} payments, ` +
          `${result.connections} connections: ` +
          `subscriptions page 1 ${loadText(result.subscriptionsPage1)}; ?customer_id&status ${loadText(result.byCustomerAndStatus)}; ` +
          `?status deep ${loadText(result.byStatusDeep)}; payments page 1 ${loadText(result.paymentsPage1)}; ` +
          `?subscription_id ${loadText(result.paymentsBySubscription)}; ratios ${JSON.stringify(result.ratios)} (target ${result.target})`,
      );
      return result;
    }
    case 'create': {
      const result = await benchCreate({ connections: 16, seconds, database });
      console.log(
        `create (${database}): ${result.connections} connections: ` +
          `${loadText(result.create)}; ceiling ${loadText(result.ceiling)}; ratio ${result.ratio} (target ${result.target})`,
      );
      return result;
    }
    case 'billing': {
      const count = sizeOf(size);
      const concurrency = Number(process.env.BILLING_CONCURRENCY ?? 8);
      const result = await benchBilling({ count, latencyMs: 50, concurrency, database });
      console.log(
        `billing (${database}): ${result.subscriptions} due subscriptions, invoices and events on, provider answering after ` +
          `${result.providerLatencyMs} ms, concurrency ${result.concurrency}: ` +
          (`${result.chargesPerSecond} charges/s in ` +
            (`${result.seconds} s; ceiling ` +
              `${result.ceilingPerSecond}/s; ratio ${result.ratio}; peak RSS ${result.peakRssMb} MB (target ${result.target}); ` +
              `then paid: ${result.settledPerSecond} settled and invoiced/s (${result.settleRatio} of the ceiling)`)),
      );
      return result;
    }
    case 'sync': {
      const result = await benchSync({ count: sizeOf(size), latencyMs: 200, database });
      console.log(
        `sync (${database}): full order sync of ${result.orders} orders (${result.pages} pages), store answering after ` +
          `${result.storeLatencyMs} ms, ${result.parallelism} at once: ` +
          (`${result.seconds} s; ceiling ${result.ceilingSeconds} s; ratio ${result.ratio} (target ${result.target}); peak RSS ` +
            `${result.peakRssMb} MB`),
      );
      return result;
    }
    case 'webhooks': {
      const result = await benchWebhooks({ calls: sizeOf(size), database });
      console.log(
        `webhooks (${database}): ${result.calls} Mollie calls posted at once: ` +
          `${result.answered200} answered 200, p99 ${result.answerP99Ms} ms; ` +
          `all processed in ${result.processedSeconds} s; ${result.lost} lost (target ${result.target})`,
      );
      return result;
    }
  }
}

/** Each case runs in a process of its own, so its memory (peak RSS) is its own and not the cases' before it. */
function inChild(name: CaseName, database: Database, size: number | null, resultFile: string): Promise<void> {
  return new Promise((resolve, reject) => {
    // --expose-gc: a case collects the garbage of its set-up before it measures memory.
    // BENCH_PROFILE_DIR: the in-process cases (billing, sync) are profiled in the case's own process.
    const profile = process.env.BENCH_PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`] : [];
    const child = spawn(process.execPath, ['--expose-gc', ...profile, __filename], {
      env: { ...process.env, BENCH_ONE: `${name}:${database}:${size ?? ''}`, BENCH_RESULT_FILE: resultFile },
      stdio: 'inherit',
    });
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`bench case ${name} (${database}) exited with ${code}`))));
  });
}

/** A scaled case at each size: time per item, its ratio to the smallest size's, and peak RSS, as a table. */
function scaleTable(name: CaseName, database: Database, sizes: number[], results: ScaledResult[]) {
  const smallest = results[0]?.perItemMs ?? 0;
  const rows = results.map((result, index) => ({
    items: itemsAt(name, sizes[index] as number),
    perItemMs: result.perItemMs,
    ratioToSmallest: smallest > 0 ? Math.round((result.perItemMs / smallest) * 100) / 100 : null,
    peakRssMb: result.peakRssMb,
  }));
  console.log(`\n${name} (${database}) by size:\n  items      per item (ms)   × smallest   peak RSS (MB)`);
  for (const row of rows) {
    const cells = [String(row.items).padEnd(10), String(row.perItemMs).padEnd(15), String(row.ratioToSmallest).padEnd(12)];
    console.log(`  ${cells.join(' ')} ${row.peakRssMb ?? '-'}`);
  }
  return { case: name, database, sizes: rows };
}

/**
 * `npm run bench`: measurements, not tests. Prints each case beside its ceiling and writes
 * bench/results/latest.json. Cases are chosen with BENCH_CASES (comma-separated; default all);
 * BENCH_MYSQL_URL adds MySQL; BENCH_SIZES sizes the scaled cases (filtered, billing, sync, webhooks);
 * BENCH_SECONDS sets each HTTP load; BENCH_LIST_CUSTOMERS sizes the list case; BENCH_RESULT_NAME names the
 * JSON file (default latest.json); BENCH_COUNT_STATEMENTS=1
 * prints the SQL statements per charge; BENCH_PROFILE_DIR writes CPU profiles of the service processes.
 */
async function main(): Promise<void> {
  const one = process.env.BENCH_ONE;
  if (one) {
    const [name, database, size] = one.split(':') as [CaseName, Database, string];
    writeFileSync(process.env.BENCH_RESULT_FILE as string, JSON.stringify(await runCase(name, database, size ? Number(size) : null)));
    return;
  }
  const cases = (process.env.BENCH_CASES ?? CASES.join(',')).split(',').map((name) => name.trim()) as CaseName[];
  const databases: Database[] = process.env.BENCH_MYSQL_URL ? ['sqlite', 'mysql'] : ['sqlite'];
  const sizes = (process.env.BENCH_SIZES ?? DEFAULT_SIZES).split(',').map((size) => Number(size.trim()));
  if (sizes.some((size) => !Number.isInteger(size) || size < 1)) throw new Error('BENCH_SIZES is whole numbers from 1, comma-separated');
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'rps-bench-'));
  const results: object[] = [];
  const scale: object[] = [];
  try {
    for (const name of CASES.filter((candidate) => cases.includes(candidate))) {
      for (const database of databases) {
        const scaled = SCALED.has(name);
        const atSizes: ScaledResult[] = [];
        for (const size of scaled ? sizes : [null]) {
          const file = path.join(scratch, `${name}-${database}-${size ?? 'one'}.json`);
          await inChild(name, database, size === null ? null : itemsAt(name, size), file);
          const result = JSON.parse(readFileSync(file, 'utf8')) as ScaledResult;
          results.push(result);
          atSizes.push(result);
        }
        if (scaled) scale.push(scaleTable(name, database, sizes, atSizes));
      }
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  const machine = {
    cpus: os.cpus().length,
    cpu: os.cpus()[0]?.model ?? 'unknown',
    memoryGb: Math.round(os.totalmem() / 1024 ** 3),
    node: process.version,
    platform: `${os.platform()} ${os.release()}`,
  };
  const dir = path.resolve(__dirname, '../../bench/results');
  mkdirSync(dir, { recursive: true });
  const file = process.env.BENCH_RESULT_NAME ?? 'latest.json';
  writeFileSync(path.join(dir, file), `${JSON.stringify({ date: new Date().toISOString(), machine, sizes, scale, results }, null, 2)}\n`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.stack : error);
  process.exitCode = 1;
});

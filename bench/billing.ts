import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Knex } from 'knex';
import { createContext } from '../src/bootstrap';
import { loadConfig } from '../src/config';
import { newId, randomBase62 } from '../src/ids';
import { createLogger } from '../src/logger';
import { runBilling } from '../src/modules/billing/run';
import { syncPaymentFromProvider } from '../src/modules/payments/service';
import type { CustomerRow } from '../src/modules/customers/repository';
import type { MandateRow } from '../src/modules/mandates/repository';
import type { SubscriptionRow, SubscriptionRuleRow } from '../src/modules/subscriptions/repository';
import { newSubscription } from '../src/modules/subscriptions/service';
import { toDbDateTime } from '../src/time';
import { benchDatabase, type BenchDatabase } from './databases';
import { peakRssSampler } from './memory';
import { CEILING_SCRIPT, startNode } from './http';
import { APP_KEY } from './list';
import { benchCustomer } from './rows';
import { SlowProvider } from './slowProvider';

export interface BillingBenchResult {
  case: 'billing';
  database: string;
  subscriptions: number;
  /** Milliseconds of the run per charge (its duration over the charges made). */
  perItemMs: number;
  /** Then every charge paid: the provider's news applied BILLING_CONCURRENCY at a time, each issuing its invoice. */
  settledPerSecond: number;
  /** That rate over the same ceiling (each settlement asks the provider once). */
  settleRatio: number;
  concurrency: number;
  providerLatencyMs: number;
  seconds: number;
  chargesPerSecond: number;
  ceilingPerSecond: number;
  ratio: number;
  peakRssMb: number;
  target: string;
}

/** Customers, mandates and monthly subscriptions due on 1 December, written in bulk. */
async function seed(db: Knex, accountId: string, count: number): Promise<void> {
  const now = new Date('2026-11-21T10:00:00Z');
  const stamp = toDbDateTime(now);
  for (let start = 0; start < count; start += 500) {
    const customers: CustomerRow[] = [];
    const mandates: MandateRow[] = [];
    const subscriptions: SubscriptionRow[] = [];
    const rules: SubscriptionRuleRow[] = [];
    for (let index = start; index < Math.min(count, start + 500); index += 1) {
      const customer = benchCustomer(accountId, index, stamp);
      const customerId = customer.id;
      customers.push(customer);
      const mandate: MandateRow = {
        id: `mdt_${randomBase62(10)}`,
        account_id: accountId,
        customer_id: customerId,
        method: 'directdebit',
        status: 'valid',
        consumer_name: 'Bench',
        consumer_account: 'NL91ABNA0417164300',
        consumer_bic: null,
        card_holder: null,
        card_number: null,
        card_expiry_date: null,
        card_label: null,
        card_fingerprint: null,
        mandate_reference: `BENCH-${index}`,
        custom_reference: false,
        signature_date: '2026-11-01',
        revoked_at: null,
        created_at: stamp,
        updated_at: stamp,
      };
      mandates.push(mandate);
      const made = newSubscription(
        { id: accountId },
        {
          name: `Bench ${index}`,
          customer_id: customerId,
          provider_profile_id: 'pfl_bench',
          provider_mandate_id: mandate.id,
          start_date: '2026-12-01',
          rules: [{ amount: 1250, interval: 'month', interval_amount: 1 }],
        },
        mandate,
        now,
      );
      subscriptions.push(made.row);
      rules.push(...made.rules);
    }
    await db.transaction(async (trx) => {
      await trx('customers').insert(customers);
      await trx('mandates').insert(mandates);
      await trx('subscriptions').insert(subscriptions);
      await trx('subscription_rules').insert(rules);
    });
  }
}

/**
 * One billing run of `count` due subscriptions against a provider answering after `latencyMs`, in an
 * account with invoices (21 % VAT, numbered) and events (delivered to an endpoint of its own) on. The
 * provider answers each charge `pending`, as Mollie does a direct debit: the run writes the charges,
 * their payments and the merchant's events. Then every charge is paid, and the provider's news is
 * applied as its webhook calls are: that settles each charge and issues its invoice (measured apart).
 * The ceiling is what the provider's latency allows: BILLING_CONCURRENCY calls in flight, each
 * taking `latencyMs`.
 */
export async function benchBilling(options: {
  count: number;
  latencyMs: number;
  concurrency: number;
  database: BenchDatabase['kind'];
}): Promise<BillingBenchResult> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'rps-bench-billing-'));
  const database = await benchDatabase(options.database, dir);
  // The merchant's events endpoint, in a process of its own: every event is delivered as in production.
  const merchant = await startNode(CEILING_SCRIPT, {});
  try {
    const { config } = loadConfig({
      NODE_ENV: 'production',
      DATABASE_URL: database.url,
      DATA_DIR: dir,
      APP_KEY,
      LOG_LEVEL: 'warn',
      BILLING_CONCURRENCY: String(options.concurrency),
      PUBLIC_URL: 'https://rps.example',
      OUTBOUND_ALLOW_PRIVATE: 'on',
    });
    const logger = createLogger('warn');
    const { ctx } = await createContext(config, logger);
    const provider = new SlowProvider(options.latencyMs);
    const bench = { ...ctx, providers: { forAccount: async () => provider } };
    const stamp = toDbDateTime(new Date());
    const accountId = newId('acc');
    await ctx.db('accounts').insert({
      id: accountId,
      name: 'Bench',
      public_ref: randomBase62(20),
      bookkeeping_system: null,
      // Every payment's status change and every invoice not issued is an event for the merchant.
      events_url: `${merchant.url}/events`,
      created_at: stamp,
      updated_at: stamp,
    });
    await ctx.db('invoice_settings').insert({ account_id: accountId, prefix: 'B-', next_number: 1, default_vat: '21', updated_at: stamp });
    await seed(ctx.db, accountId, options.count);

    const statements = new Map<string, number>();
    if (process.env.BENCH_COUNT_STATEMENTS) {
      ctx.db.on('query', (query: { sql: string }) => {
        const key = query.sql.slice(0, 60);
        statements.set(key, (statements.get(key) ?? 0) + 1);
      });
    }
    const rss = peakRssSampler();
    const started = process.hrtime.bigint();
    const summary = await runBilling(bench, '2026-12-01');
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const peakRssMb = rss.stop();
    if (summary.charged !== options.count || provider.created !== options.count) {
      throw new Error(`billing bench: expected ${options.count} charges, made ${summary.charged} (${provider.created} at the provider)`);
    }
    // The charges are paid (SEPA: days later): the provider's news of each is applied as a webhook call is,
    // BILLING_CONCURRENCY at a time — each settles its charge, which issues its invoice and tells the merchant.
    const paymentIds = (await ctx.db('payments').where({ account_id: accountId }).pluck('provider_payment_id')) as string[];
    provider.payAll();
    const settleStarted = process.hrtime.bigint();
    let next = 0;
    const settler = async () => {
      while (next < paymentIds.length) await syncPaymentFromProvider(bench, accountId, paymentIds[next++] as string);
    };
    await Promise.all(Array.from({ length: options.concurrency }, settler));
    const settleSeconds = Number(process.hrtime.bigint() - settleStarted) / 1e9;
    const [invoiced] = (await ctx.db('invoices').where({ account_id: accountId, status: 'issued' }).count({ n: '*' })) as Array<{
      n: number | string;
    }>;
    if (Number(invoiced?.n) !== options.count)
      throw new Error(`billing bench: ${String(invoiced?.n)} invoices for ${options.count} charges`);
    if (statements.size)
      console.log(
        [...statements.entries()]
          .sort((a, b) => b[1] - a[1])
          .map(([sql, n]) => `${(n / options.count).toFixed(2)}  ${sql}`)
          .join('\n'),
      );
    // The events' deliveries that were still going when the run ended.
    await ctx.background.idle();
    await ctx.db.destroy();
    const chargesPerSecond = options.count / seconds;
    const ceilingPerSecond = options.concurrency / (options.latencyMs / 1000);
    return {
      case: 'billing',
      database: options.database,
      subscriptions: options.count,
      perItemMs: Number(((seconds * 1000) / options.count).toFixed(3)),
      concurrency: options.concurrency,
      providerLatencyMs: options.latencyMs,
      seconds: Number(seconds.toFixed(2)),
      chargesPerSecond: Number(chargesPerSecond.toFixed(1)),
      ceilingPerSecond,
      ratio: Number((chargesPerSecond / ceilingPerSecond).toFixed(2)),
      peakRssMb,
      settledPerSecond: Number((options.count / settleSeconds).toFixed(1)),
      settleRatio: Number((options.count / settleSeconds / ceilingPerSecond).toFixed(2)),
      target: '≥ 0.8 of the ceiling; per charge at 100k within 1.15 × of 1k; peak RSS < 300 MB',
    };
  } finally {
    await merchant.stop();
    await database.drop();
    rmSync(dir, { recursive: true, force: true });
  }
}

import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createContext } from '../src/bootstrap';
import { loadConfig } from '../src/config';
import { newId } from '../src/ids';
import { createLogger } from '../src/logger';
import { createToken } from '../src/modules/accounts/service';
import type { CustomerRow } from '../src/modules/customers/repository';
import type { SubscriptionRow } from '../src/modules/subscriptions/repository';
import { systemClock, toDbDateTime } from '../src/time';
import { benchDatabase, type BenchDatabase } from './databases';
import { load, round2, SERVER_SCRIPT, startNode, type Load } from './http';
import { APP_KEY, serviceEnv } from './list';
import { peakRssOfProcess } from './memory';
import { benchCustomer } from './rows';

export interface FilteredListBenchResult {
  case: 'filtered';
  database: string;
  subscriptions: number;
  payments: number;
  connections: number;
  /** Milliseconds per request of `?customer_id=&status=` (one over its requests per second). */
  perItemMs: number;
  /** The service process's peak resident memory. */
  peakRssMb: number | null;
  /** Unfiltered page 1 of each list: what the filtered pages are compared with. */
  subscriptionsPage1: Load;
  paymentsPage1: Load;
  /** `?customer_id=&status=active` (10 of the customer's subscriptions, most active). */
  byCustomerAndStatus: Load;
  /** `?status=active` at 90 % depth of the ~80 % active subscriptions. */
  byStatusDeep: Load;
  /** `GET /api/v2/payments?subscription_id=` (100 payments of one subscription). */
  paymentsBySubscription: Load;
  /** Each filtered load over its unfiltered page 1 (target ≥ 0.8). */
  ratios: { byCustomerAndStatus: number; byStatusDeep: number; paymentsBySubscription: number };
  target: string;
}

/** 10 subscriptions per customer: 10,000 customers for 100,000 subscriptions. */
const customersFor = (count: number) => Math.max(1, Math.ceil(count / 10));
const PAYMENTS_PER_SUBSCRIPTION = 100;

/**
 * One account with `count` subscriptions (10 per customer; 80 % active, 10 % paused, 10 %
 * cancelled) and `count` payments (100 per subscription, on the first count/100 of them), written
 * in bulk. Answers the token, a customer and a subscription to filter on.
 */
async function seed(databaseUrl: string, dir: string, count: number) {
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
    const customers: CustomerRow[] = [];
    const customerCount = customersFor(count);
    for (let index = 0; index < customerCount; index += 1) customers.push(benchCustomer(account.id, index, stamp));
    await ctx.db.batchInsert('customers', customers, 500);
    const subscriptionIds: string[] = [];
    for (let start = 0; start < count; start += 500) {
      const rows: SubscriptionRow[] = [];
      for (let index = start; index < Math.min(count, start + 500); index += 1) {
        const id = newId('sub');
        subscriptionIds.push(id);
        rows.push({
          id,
          account_id: account.id,
          customer_id: (customers[index % customerCount] as CustomerRow).id,
          name: `Coffee box ${index}`,
          status: index % 10 === 8 ? 'paused' : index % 10 === 9 ? 'cancelled' : 'active',
          start_date: '2026-12-01',
          currency: 'EUR',
          provider_mandate_id: 'mdt_bench00001',
          provider_profile_id: 'pfl_bench00001',
          next_payment_at: null,
          next_amount: null,
          last_payment_created_at: null,
          resume_at: null,
          next_charge_number: 1,
          next_charge_date: null,
          cancel_at: null,
          workflow_id: null,
          docstyle_id: null,
          created_at: stamp,
          updated_at: stamp,
        });
      }
      await ctx.db.batchInsert('subscriptions', rows, 500);
    }
    for (let start = 0; start < count; start += 500) {
      const rows = [];
      for (let index = start; index < Math.min(count, start + 500); index += 1) {
        const subscriptionIndex = Math.floor(index / PAYMENTS_PER_SUBSCRIPTION);
        rows.push({
          id: newId('pay'),
          account_id: account.id,
          customer_id: (customers[subscriptionIndex % customerCount] as CustomerRow).id,
          subscription_id: subscriptionIds[subscriptionIndex],
          purpose: 'charge',
          purpose_id: null,
          origin_key: null,
          provider_payment_id: `tr_bench${index}`,
          sequence_type: 'recurring',
          status: index % 20 === 0 ? 'failed' : 'paid',
          amount: 1250,
          currency: 'EUR',
          description: 'Coffee box',
          create_attempts: 0,
          created_at: stamp,
          updated_at: stamp,
        });
      }
      await ctx.db.batchInsert('payments', rows, 500);
    }
    return { token, customerId: (customers[0] as CustomerRow).id, subscriptionId: subscriptionIds[0] as string };
  } finally {
    await Promise.all([ctx.db.destroy(), ctx.rateLimits.close()]);
  }
}

/** Filtered pages of `GET /api/v2/subscriptions` and `GET /api/v2/payments` at `count` rows each, beside their unfiltered page 1. */
export async function benchFilteredList(options: {
  count: number;
  connections: number;
  seconds: number;
  database: BenchDatabase['kind'];
}): Promise<FilteredListBenchResult> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'rps-bench-filtered-'));
  const database = await benchDatabase(options.database, dir);
  try {
    const { token, customerId, subscriptionId } = await seed(database.url, dir, options.count);
    const headers = { Authorization: `Bearer ${token}` };
    const deepPage = Math.ceil((options.count * 0.8 * 0.9) / 15);
    const measure = (url: string) => load({ url, connections: options.connections, seconds: options.seconds, headers });
    const service = await startNode(SERVER_SCRIPT, serviceEnv(database.url, dir));
    let measured;
    let peakRssMb: number | null;
    try {
      const url = service.url;
      const check = await fetch(`${url}/api/v2/subscriptions?customer_id=${customerId}&status=active`, { headers });
      if (check.status !== 200) throw new Error(`filtered list answered ${check.status}`);
      measured = {
        subscriptionsPage1: await measure(`${url}/api/v2/subscriptions?page=1`),
        byCustomerAndStatus: await measure(`${url}/api/v2/subscriptions?customer_id=${customerId}&status=active`),
        byStatusDeep: await measure(`${url}/api/v2/subscriptions?status=active&page=${deepPage}`),
        paymentsPage1: await measure(`${url}/api/v2/payments?page=1`),
        paymentsBySubscription: await measure(`${url}/api/v2/payments?subscription_id=${subscriptionId}`),
      };
      peakRssMb = peakRssOfProcess(service.child.pid ?? 0);
    } finally {
      await service.stop();
    }
    const ratio = (filtered: Load, plain: Load) => round2(filtered.requestsPerSecond / plain.requestsPerSecond);
    return {
      case: 'filtered',
      database: options.database,
      subscriptions: options.count,
      payments: options.count,
      connections: options.connections,
      perItemMs: round2(1000 / measured.byCustomerAndStatus.requestsPerSecond),
      peakRssMb,
      ...measured,
      ratios: {
        byCustomerAndStatus: ratio(measured.byCustomerAndStatus, measured.subscriptionsPage1),
        byStatusDeep: ratio(measured.byStatusDeep, measured.subscriptionsPage1),
        paymentsBySubscription: ratio(measured.paymentsBySubscription, measured.paymentsPage1),
      },
      target: 'each filtered page ≥ 0.8 × its unfiltered page 1; p99 < 50 ms',
    };
  } finally {
    await database.drop();
    rmSync(dir, { recursive: true, force: true });
  }
}

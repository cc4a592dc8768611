import type { Knex } from 'knex';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * What an operator watches, in Prometheus's text format at `GET /metrics`. One registry per context
 * (not prom-client's global one), so several contexts in one process — tests, the CLI — never
 * register a metric twice. Counts are per instance; Prometheus adds the instances up.
 */
export interface Metrics {
  registry: Registry;
  httpRequestDuration: Histogram<'method' | 'route' | 'status'>;
  jobRuns: Counter<'job' | 'outcome'>;
  jobDuration: Histogram<'job'>;
  chargeAttempts: Counter<'outcome'>;
  syncRuns: Counter<'kind' | 'status'>;
}

export function createMetrics(db: Knex): Metrics {
  const registry = new Registry();
  const metrics: Metrics = {
    registry,
    httpRequestDuration: new Histogram({
      name: 'rps_http_request_duration_seconds',
      help: 'Time to answer a request, by route pattern and status',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    }),
    jobRuns: new Counter({
      name: 'rps_job_runs_total',
      help: 'Job runs by outcome (ran, skipped: leased elsewhere, failed)',
      labelNames: ['job', 'outcome'],
      registers: [registry],
    }),
    jobDuration: new Histogram({
      name: 'rps_job_duration_seconds',
      help: 'Duration of job runs that ran here',
      labelNames: ['job'],
      buckets: [0.01, 0.05, 0.1, 0.5, 1, 5, 15, 60, 300, 900],
      registers: [registry],
    }),
    chargeAttempts: new Counter({
      name: 'rps_charge_attempts_total',
      help: 'Subscription charges attempted by billing runs, by outcome (charged, skipped, not_charged, unknown, failed)',
      labelNames: ['outcome'],
      registers: [registry],
    }),
    syncRuns: new Counter({
      name: 'rps_sync_runs_total',
      help: 'Store syncs finished, by kind and status',
      labelNames: ['kind', 'status'],
      registers: [registry],
    }),
  };
  // Read when scraped: the outbox is the truth, whichever instance delivers.
  new Gauge({
    name: 'rps_webhook_deliveries',
    help: 'Events to webhook_url addresses waiting to be delivered (pending) or given up (dead)',
    labelNames: ['status'],
    registers: [registry],
    async collect() {
      const rows = (await db('outbound_events')
        .whereIn('status', ['pending', 'dead'])
        .groupBy('status')
        .select('status')
        .count({ n: '*' })) as Array<{ status: string; n: number | string }>;
      this.reset();
      for (const status of ['pending', 'dead']) this.set({ status }, Number(rows.find((row) => row.status === status)?.n ?? 0));
    },
  });
  return metrics;
}

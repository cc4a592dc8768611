import { Counter, Histogram, Registry } from 'prom-client';
import { registerBacklogGauges, type BacklogSource } from './backlog';

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
  portalLoginLimited: Counter<'limit'>;
}

export function createMetrics(backlog: BacklogSource): Metrics {
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
    portalLoginLimited: new Counter({
      name: 'rps_portal_login_limited_total',
      help: 'Portal log-ins that sent no mail for a limit: ip (per client and hour), address (mailed minutes ago), global (all clients)',
      labelNames: ['limit'],
      registers: [registry],
    }),
  };
  // Read when scraped: the outboxes, charges and runs in the database are the truth, whichever instance works.
  registerBacklogGauges(registry, backlog);
  return metrics;
}

import type { Knex } from 'knex';
import { Gauge, type Registry } from 'prom-client';
import { calendarDateIn, fromDbDateTime, instantFromZonedDateTime, msBefore, toDbDateTime, type Clock } from '../time';
import { backlogRepository } from './backlogRepository';

/** What the gauges need besides the database: the time, and the zone billing's days are in. */
export interface BacklogSource {
  db: Knex;
  clock: Clock;
  timeZone: string;
}

/** One read for the gauges that show parts of it: a gauge asking while the read is under way gets its answer. */
function sharedWhileReading<T>(read: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | null = null;
  return () => {
    pending ??= read().finally(() => {
      pending = null;
    });
    return pending;
  };
}

const seconds = (from: Date, to: Date) => Math.max(0, (to.getTime() - from.getTime()) / 1000);

/**
 * Gauges read at each scrape, so an operator sees a run coming and a backlog growing (docs/operations.md
 * says which alerts to set): the last billing run's duration and rate, charges due and not made with
 * the oldest one's age, each store's sync lag, and the depth of every outbox.
 */
export function registerBacklogGauges(registry: Registry, source: BacklogSource): void {
  const { db, clock, timeZone } = source;
  new Gauge({
    name: 'rps_webhook_deliveries',
    help: 'Events to webhook_url addresses waiting to be delivered (pending) or given up (dead)',
    labelNames: ['status'],
    registers: [registry],
    async collect() {
      const counts = await backlogRepository.webhookDeliveries(db);
      this.reset();
      for (const [status, n] of Object.entries(counts)) this.set({ status }, n);
    },
  });
  new Gauge({
    name: 'rps_outbox_depth',
    help: 'Rows waiting in each outbox: events, mails, store_tasks (write-backs), bookkeeping, provider_webhooks (calls not processed)',
    labelNames: ['kind'],
    registers: [registry],
    async collect() {
      const depths = await backlogRepository.outboxDepths(db);
      this.reset();
      for (const [kind, n] of Object.entries(depths)) this.set({ kind }, n);
    },
  });

  const due = sharedWhileReading(() => backlogRepository.dueCharges(db, calendarDateIn(clock.now(), timeZone)));
  new Gauge({
    name: 'rps_billing_due_charges',
    help: 'Charges due today or before and not made: planned by a run and not charged yet, or not planned (no run since they fell due)',
    labelNames: ['stage'],
    registers: [registry],
    async collect() {
      const { planned, unplanned } = await due();
      this.set({ stage: 'planned' }, planned);
      this.set({ stage: 'unplanned' }, unplanned);
    },
  });
  new Gauge({
    name: 'rps_billing_oldest_due_charge_age_seconds',
    help: 'Since the start of the oldest due day of a charge not made yet (in APP_TIMEZONE); 0 when none is due',
    registers: [registry],
    async collect() {
      const { oldestDueDate } = await due();
      const dayStart = oldestDueDate ? instantFromZonedDateTime(`${oldestDueDate} 00:00:00`, timeZone) : null;
      this.set(dayStart ? seconds(dayStart, clock.now()) : 0);
    },
  });

  const lastRun = sharedWhileReading(() => backlogRepository.lastFinishedBillingRun(db));
  new Gauge({
    name: 'rps_billing_last_run_duration_seconds',
    help: 'How long the latest finished billing run took, on whichever instance ran it',
    registers: [registry],
    async collect() {
      const run = await lastRun();
      this.set(run ? seconds(fromDbDateTime(run.started_at), fromDbDateTime(run.finished_at)) : 0);
    },
  });
  new Gauge({
    name: 'rps_billing_last_run_charges_per_second',
    help: 'Charges the latest finished billing run made per second of its duration',
    registers: [registry],
    async collect() {
      const run = await lastRun();
      const took = run ? seconds(fromDbDateTime(run.started_at), fromDbDateTime(run.finished_at)) : 0;
      this.set(run && took > 0 ? Number(run.charged ?? 0) / took : 0);
    },
  });
  new Gauge({
    name: 'rps_store_sync_lag_seconds',
    help: "Since each connected store's latest successful order sync finished (since it was connected, before the first)",
    labelNames: ['shop'],
    registers: [registry],
    async collect() {
      const stores = await backlogRepository.storeSyncs(db);
      const now = clock.now();
      this.reset();
      for (const store of stores) {
        const since = store.synced_at ?? store.connected_at;
        this.set({ shop: store.id }, since ? seconds(fromDbDateTime(since), now) : 0);
      }
    },
  });
  new Gauge({
    name: 'rps_audit_violations',
    help: "Broken ledger invariants in each account's latest audit report of the last 8 days, added up (alert when above 0)",
    registers: [registry],
    async collect() {
      this.set(await backlogRepository.auditViolations(db, toDbDateTime(msBefore(clock.now(), 8 * 24 * 60 * 60 * 1000))));
    },
  });
}

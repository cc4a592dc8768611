import type { Knex } from 'knex';

/**
 * What the scrape-time gauges read: counts and ages off the indexes of the outboxes, the charges and
 * the runs — whichever instance does the work, the database is the truth. Each is one indexed read.
 */
export interface OutboxDepths {
  /** Events to merchants' endpoints (and store callbacks) waiting to be delivered. */
  events: number;
  mails: number;
  /** Write-backs to connected stores (orders paid, renewals). */
  store_tasks: number;
  /** Documents for a bookkeeping system (Moneybird). */
  bookkeeping: number;
  /** Provider webhook calls kept and not processed yet. */
  provider_webhooks: number;
}

const count = async (query: Knex.QueryBuilder): Promise<number> => {
  const row = (await query.count({ n: '*' }).first()) as { n: number | string } | undefined;
  return Number(row?.n ?? 0);
};

export const backlogRepository = {
  /** Violations in each account's latest finished audit report of the last `days` (the ledger audit's daily job). */
  auditViolations: async (db: Knex, since: string): Promise<number> => {
    const rows = (await db('audit_reports')
      .where('status', 'done')
      .andWhere('started_at', '>=', since)
      .orderBy([
        { column: 'started_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ])
      .select('account_id', 'violations')) as Array<{ account_id: string; violations: number | string | null }>;
    const latest = new Map<string, number>();
    for (const row of rows) if (!latest.has(row.account_id)) latest.set(row.account_id, Number(row.violations ?? 0));
    return [...latest.values()].reduce((total, n) => total + n, 0);
  },

  /** Events to webhook_url addresses by status: pending and dead. */
  webhookDeliveries: async (db: Knex): Promise<Record<'pending' | 'dead', number>> => {
    const rows = (await db('outbound_events')
      .whereIn('status', ['pending', 'dead'])
      .groupBy('status')
      .select('status')
      .count({ n: '*' })) as Array<{
      status: string;
      n: number | string;
    }>;
    const of = (status: string) => Number(rows.find((row) => row.status === status)?.n ?? 0);
    return { pending: of('pending'), dead: of('dead') };
  },

  outboxDepths: async (db: Knex): Promise<OutboxDepths> => {
    const [events, mails, storeTasks, bookkeeping, providerWebhooks] = await Promise.all([
      count(db('outbound_events').where('status', 'pending')),
      count(db('outgoing_mails').where('status', 'queued')),
      count(db('shop_tasks').where('status', 'pending')),
      count(db('bookkeeping_outbox').where('status', 'pending')),
      count(db('provider_webhook_calls').whereNull('processed_at').whereNull('gave_up_at')),
    ]);
    return { events, mails, store_tasks: storeTasks, bookkeeping, provider_webhooks: providerWebhooks };
  },

  /**
   * Charges due by `today` not made yet: the rows a run planned and has not charged, and the
   * subscriptions whose next charge is due but not planned (no run since) — with the oldest due date of either.
   */
  dueCharges: async (db: Knex, today: string): Promise<{ planned: number; unplanned: number; oldestDueDate: string | null }> => {
    const planned = db('subscription_charges').where('status', 'due').andWhere('due_date', '<=', today);
    // Paused ones are planned as skipped, not charged: only active ones wait for a charge.
    const unplanned = db('subscriptions').where('status', 'active').andWhere('next_charge_date', '<=', today);
    const [plannedCount, unplannedCount, oldestPlanned, oldestUnplanned] = await Promise.all([
      count(planned.clone()),
      count(unplanned.clone()),
      planned.clone().min({ oldest: 'due_date' }).first(),
      unplanned.clone().min({ oldest: 'next_charge_date' }).first(),
    ]);
    const dates = [oldestPlanned, oldestUnplanned]
      .map((row) => (row as { oldest: string | Date | null } | undefined)?.oldest ?? null)
      .filter((value): value is string | Date => value !== null)
      .map((value) => (value instanceof Date ? value.toISOString() : String(value)).slice(0, 10))
      .sort();
    return { planned: plannedCount, unplanned: unplannedCount, oldestDueDate: dates[0] ?? null };
  },

  /** The latest billing run that finished: when it started and ended, and the charges it made. */
  lastFinishedBillingRun: (db: Knex) =>
    db('billing_runs')
      .whereNotNull('finished_at')
      .orderBy('seq', 'desc')
      .first<{ started_at: string; finished_at: string; charged: number | null } | undefined>('started_at', 'finished_at', 'charged'),

  /** Each connected store with its latest successful order sync (null: none yet) and since when it is connected. */
  storeSyncs: (db: Knex) =>
    db('shops')
      .where('shops.status', 'connected')
      .select(
        'shops.id',
        'shops.connected_at',
        db('sync_runs')
          .max('finished_at')
          .where('sync_runs.account_id', db.ref('shops.account_id'))
          .andWhere({ kind: 'orders', status: 'succeeded' })
          .as('synced_at'),
      ) as Promise<Array<{ id: string; connected_at: string | null; synced_at: string | null }>>,
};

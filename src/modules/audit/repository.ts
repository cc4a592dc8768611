import type { Knex } from 'knex';

/**
 * The ledger audit's reads (and its stored reports): the only place that queries for it. Every read is scoped by the
 * account; `since` (a stored UTC time) narrows each to what was made from then on.
 */
export interface AuditScope {
  accountId: string;
  /** `YYYY-MM-DD HH:MM:SS` UTC, or null for the account's whole history. */
  since: string | null;
}

export interface AuditPayment {
  id: string;
  subscription_id: string | null;
  customer_id: string | null;
  provider_payment_id: string | null;
  status: string;
  amount: number;
  currency: string;
  purpose: string;
  purpose_id: string | null;
  amount_charged_back: number;
  paid_at: string | null;
  created_at: string;
}

/** The columns of an AuditPayment, as every payment read of the audit selects them. */
const PAYMENT_COLUMNS: Array<keyof AuditPayment> = [
  'id',
  'subscription_id',
  'customer_id',
  'provider_payment_id',
  'status',
  'amount',
  'currency',
  'purpose',
  'purpose_id',
  'amount_charged_back',
  'paid_at',
  'created_at',
];

/** The invoice columns the audit reads, in both of its invoice reads. */
const INVOICE_COLUMNS: Array<keyof AuditInvoice> = [
  'id',
  'payment_id',
  'charge_id',
  'subscription_id',
  'number',
  'status',
  'not_issued_reason',
  'lines',
  'total_excluding_vat',
  'total_vat',
  'total_including_vat',
  'created_at',
];

export interface AuditCharge {
  id: string;
  subscription_id: string;
  charge_number: number;
  rule_id: string;
  due_date: string;
  amount: number;
  status: string;
  payment_id: string | null;
}

export interface AuditRule {
  id: string;
  interval: string;
  interval_amount: number;
}

export interface AuditFollowUp {
  id: string;
  payment_id: string | null;
  link_id: string | null;
}

export interface AuditSubscription {
  id: string;
  customer_id: string;
  status: string;
  cancel_at: string | null;
  provider_mandate_id: string;
  source: string | null;
  source_id: string | null;
  origin_order_id: string | null;
}

export interface AuditPause {
  subscription_id: string;
  from_date: string;
  until_date: string | null;
  kind: string;
  created_at: string;
}

export interface AuditInvoice {
  id: string;
  payment_id: string;
  charge_id: string | null;
  subscription_id: string | null;
  number: string | null;
  status: string;
  not_issued_reason: string | null;
  lines: string;
  total_excluding_vat: number;
  total_vat: number;
  total_including_vat: number;
  created_at: string;
}

export interface AuditCreditNote {
  id: string;
  invoice_id: string;
  payment_id: string;
  number: string;
  reason: string;
  source_key: string;
  lines: string;
  total_excluding_vat: number;
  total_vat: number;
  total_including_vat: number;
  created_at: string;
}

export interface AuditRefund {
  id: string;
  payment_id: string;
  amount: number;
  status: string;
  created_at: string;
}

export interface AuditMandate {
  id: string;
  customer_id: string;
  revoked_at: string;
}

export interface AuditNumberMove {
  prefix: string;
  from_number: number;
  to_number: number;
  moved_at: string;
}

export interface AuditStoreRenewal {
  id: string;
  subscription_id: string;
  order_number: string;
  payment_method: string;
  created_at: string;
}

export interface AuditReportRow {
  id: string;
  account_id: string;
  status: 'running' | 'done' | 'failed';
  requested_via: 'job' | 'api' | 'cli';
  since: string | null;
  violations: number | null;
  todos: number | null;
  report: string | null;
  error: string | null;
  started_at: string;
  finished_at: string | null;
}

const NUMBERS = ['amount', 'amount_charged_back', 'charge_number', 'interval_amount', 'total_excluding_vat', 'total_vat'] as const;
const MORE_NUMBERS = ['total_including_vat', 'from_number', 'to_number', 'violations', 'todos'] as const;

/** bigint columns come back as strings on MySQL: numbers here, once. */
function numeric<Row extends object>(rows: Row[]): Row[] {
  for (const row of rows) {
    const record = row as Record<string, unknown>;
    for (const key of [...NUMBERS, ...MORE_NUMBERS])
      if (key in record && record[key] !== null && record[key] !== undefined) record[key] = Number(record[key]);
  }
  return rows;
}

/** The rows `since` on: `column` at or after it. */
function from(query: Knex.QueryBuilder, column: string, since: string | null): Knex.QueryBuilder {
  return since ? query.andWhere(column, '>=', since) : query;
}

/** Ids in chunks: a long `IN` list stays within what either database takes. */
async function inChunks<Row>(ids: readonly string[], read: (chunk: string[]) => Promise<Row[]>): Promise<Row[]> {
  const rows: Row[] = [];
  const unique = [...new Set(ids)];
  for (let at = 0; at < unique.length; at += 500) rows.push(...(await read(unique.slice(at, at + 500))));
  return rows;
}

export const auditRepository = {
  payments: async (db: Knex, scope: AuditScope): Promise<AuditPayment[]> =>
    numeric(
      await from(db('payments').where({ account_id: scope.accountId }).select(PAYMENT_COLUMNS), 'created_at', scope.since).orderBy('seq'),
    ),

  /** Our payments with these ids (a provider payment's reference names one): of this account only. */
  paymentsByIds: async (
    db: Knex,
    accountId: string,
    ids: readonly string[],
  ): Promise<Array<Pick<AuditPayment, 'id' | 'provider_payment_id'>>> =>
    inChunks(ids, (chunk) => db('payments').where({ account_id: accountId }).whereIn('id', chunk).select('id', 'provider_payment_id')),

  /**
   * Which of these ids are payments of another account of this service (ids only, nothing of them is read): accounts
   * may share one provider account (the same key), whose listing then shows each other's payments.
   */
  paymentsOfOtherAccounts: async (db: Knex, accountId: string, ids: readonly string[]): Promise<Set<string>> =>
    new Set(
      (
        await inChunks(ids, (chunk) =>
          db('payments').whereNot({ account_id: accountId }).whereIn('id', chunk).select<Array<{ id: string }>>('id'),
        )
      ).map((row) => row.id),
    ),

  /** The periods due from `since` on (the date of `since`), each subscription's in order. */
  charges: async (db: Knex, scope: AuditScope): Promise<AuditCharge[]> =>
    numeric(
      await from(
        db('subscription_charges')
          .where({ account_id: scope.accountId })
          .select('id', 'subscription_id', 'charge_number', 'rule_id', 'due_date', 'amount', 'status', 'payment_id'),
        'due_date',
        scope.since ? scope.since.slice(0, 10) : null,
      ).orderBy([{ column: 'subscription_id' }, { column: 'charge_number' }]),
    ),

  rules: async (db: Knex, accountId: string): Promise<AuditRule[]> =>
    numeric(await db('subscription_rules').where({ account_id: accountId }).select('id', 'interval', 'interval_amount')),

  /** Follow-ups of a failed payment: their retries and links pay the same period. */
  followUps: (db: Knex, accountId: string): Promise<AuditFollowUp[]> =>
    db('follow_ups').where({ account_id: accountId }).whereNotNull('payment_id').select('id', 'payment_id', 'link_id'),

  subscriptions: (db: Knex, accountId: string): Promise<AuditSubscription[]> =>
    db('subscriptions')
      .where({ account_id: accountId })
      .select('id', 'customer_id', 'status', 'cancel_at', 'provider_mandate_id', 'source', 'source_id', 'origin_order_id'),

  pauses: (db: Knex, accountId: string): Promise<AuditPause[]> =>
    db('subscription_pauses').where({ account_id: accountId }).select('subscription_id', 'from_date', 'until_date', 'kind', 'created_at'),

  invoices: async (db: Knex, scope: AuditScope): Promise<AuditInvoice[]> =>
    numeric(
      await from(db('invoices').where({ account_id: scope.accountId }).select(INVOICE_COLUMNS), 'created_at', scope.since).orderBy('seq'),
    ),

  /** The invoices of these payments, whenever they were made (a refund since may credit an older one). */
  invoicesOfPayments: async (db: Knex, accountId: string, paymentIds: readonly string[]): Promise<AuditInvoice[]> =>
    numeric(
      await inChunks(paymentIds, (chunk) =>
        db('invoices').where({ account_id: accountId }).whereIn('payment_id', chunk).select(INVOICE_COLUMNS),
      ),
    ),

  creditNotes: async (db: Knex, scope: AuditScope): Promise<AuditCreditNote[]> =>
    numeric(
      await from(
        db('credit_notes')
          .where({ account_id: scope.accountId })
          .select(
            'id',
            'invoice_id',
            'payment_id',
            'number',
            'reason',
            'source_key',
            'lines',
            'total_excluding_vat',
            'total_vat',
            'total_including_vat',
            'created_at',
          ),
        'created_at',
        scope.since,
      ).orderBy('seq'),
    ),

  refunds: async (db: Knex, scope: AuditScope): Promise<AuditRefund[]> =>
    numeric(
      await from(
        db('refunds').where({ account_id: scope.accountId }).select('id', 'payment_id', 'amount', 'status', 'created_at'),
        'created_at',
        scope.since,
      ).orderBy([{ column: 'created_at' }, { column: 'id' }]),
    ),

  /** Every refund of these payments (what was refunded of a payment is all of its refunds, whenever). */
  refundsOfPayments: async (db: Knex, accountId: string, paymentIds: readonly string[]): Promise<AuditRefund[]> =>
    numeric(
      await inChunks(paymentIds, (chunk) =>
        db('refunds')
          .where({ account_id: accountId })
          .whereIn('payment_id', chunk)
          .select('id', 'payment_id', 'amount', 'status', 'created_at'),
      ),
    ),

  /** Payments with these ids, of this account. */
  paymentsWithIds: async (db: Knex, accountId: string, ids: readonly string[]): Promise<AuditPayment[]> =>
    numeric(await inChunks(ids, (chunk) => db('payments').where({ account_id: accountId }).whereIn('id', chunk).select(PAYMENT_COLUMNS))),

  /** Mandates revoked (by the service, or seen revoked at the provider), from `since` on. */
  revokedMandates: (db: Knex, scope: AuditScope): Promise<AuditMandate[]> =>
    from(
      db('mandates').where({ account_id: scope.accountId }).whereNotNull('revoked_at').select('id', 'customer_id', 'revoked_at'),
      'revoked_at',
      scope.since,
    ),

  /** The provider's customer id of each of these customers of the account. */
  providerCustomerIds: async (db: Knex, accountId: string, customerIds: readonly string[]): Promise<Map<string, string>> => {
    const rows = await inChunks(customerIds, (chunk) =>
      db('customers')
        .where({ account_id: accountId })
        .whereIn('id', chunk)
        .whereNotNull('provider_customer_id')
        .select<Array<{ id: string; provider_customer_id: string }>>('id', 'provider_customer_id'),
    );
    return new Map(rows.map((row) => [row.id, row.provider_customer_id]));
  },

  /** Every number an invoice or credit note of the account was given (one uniqueness for both). */
  documentNumbers: async (db: Knex, accountId: string): Promise<Array<{ kind: 'invoice' | 'credit note'; id: string; number: string }>> => {
    const invoices = await db('invoices')
      .where({ account_id: accountId })
      .whereNotNull('number')
      .select<Array<{ id: string; number: string }>>('id', 'number');
    const notes = await db('credit_notes').where({ account_id: accountId }).select<Array<{ id: string; number: string }>>('id', 'number');
    return [
      ...invoices.map((row) => ({ kind: 'invoice' as const, id: row.id, number: row.number })),
      ...notes.map((row) => ({ kind: 'credit note' as const, id: row.id, number: row.number })),
    ];
  },

  numberMoves: async (db: Knex, accountId: string): Promise<AuditNumberMove[]> =>
    numeric(
      await db('invoice_number_moves')
        .where({ account_id: accountId })
        .select('prefix', 'from_number', 'to_number', 'moved_at')
        .orderBy('seq'),
    ),

  /** The invoice series' next number now (where the numbers issued end). */
  invoiceSeries: (db: Knex, accountId: string): Promise<{ prefix: string; next_number: number } | undefined> =>
    db('invoice_settings').where({ account_id: accountId }).first('prefix', 'next_number'),

  /**
   * Store orders that renew one of our subscriptions and were paid through another gateway than `ourGateway` (another
   * biller's charge of the period), from `since` on.
   */
  storeRenewalsElsewhere: (db: Knex, scope: AuditScope, ourGateway: string): Promise<AuditStoreRenewal[]> =>
    from(
      db('orders')
        .where({ account_id: scope.accountId })
        .whereNotNull('subscription_id')
        .whereNotNull('parent_order_id')
        .whereIn('status', ['paid', 'completed'])
        .whereNotNull('payment_method')
        .whereNot('payment_method', ourGateway)
        .whereNot('payment_method', '')
        .select('id', 'subscription_id', 'order_number', 'payment_method', 'created_at'),
      'created_at',
      scope.since,
    ),

  reports: {
    insert: (db: Knex, row: AuditReportRow): Promise<unknown> => db('audit_reports').insert(row),
    finish: (db: Knex, accountId: string, id: string, changes: Partial<AuditReportRow>): Promise<number> =>
      db('audit_reports').where({ account_id: accountId, id }).update(changes),
    find: async (db: Knex, accountId: string, id: string): Promise<AuditReportRow | undefined> => {
      const row = await db<AuditReportRow>('audit_reports').where({ account_id: accountId, id }).first();
      return row ? numeric([row])[0] : undefined;
    },
    /** The account's latest finished report (done or failed). */
    latestFinished: async (db: Knex, accountId: string): Promise<AuditReportRow | undefined> => {
      const row = await db<AuditReportRow>('audit_reports')
        .where({ account_id: accountId })
        .whereNot('status', 'running')
        .orderBy([
          { column: 'started_at', order: 'desc' },
          { column: 'id', order: 'desc' },
        ])
        .first();
      return row ? numeric([row])[0] : undefined;
    },
    /** The account's run still going, started after `after` (an older one was lost with its process). */
    running: (db: Knex, accountId: string, after: string): Promise<AuditReportRow | undefined> =>
      db<AuditReportRow>('audit_reports').where({ account_id: accountId, status: 'running' }).andWhere('started_at', '>=', after).first(),
  },
};

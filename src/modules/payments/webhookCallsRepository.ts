import type { Knex } from 'knex';
import { GroupCommit } from '../../db/groupCommit';

/** A provider's webhook call, kept before it is answered (see webhookCalls.ts). */
export interface WebhookCallRow {
  seq: number;
  account_id: string;
  provider: string;
  resource_id: string;
  received_at: string;
  processed_at: string | null;
  attempts: number;
  last_error: string | null;
  /** When the job tries it next; after it was given up, when reconciliation asks again (null: at once). */
  next_attempt_at: string | null;
  gave_up_at: string | null;
  /** When reconciliation brought in the payment of a given-up call (see reconciliation.ts). */
  reconciled_at: string | null;
  /** Set by the group commit that kept it (see groupCommit.ts); null on rows kept before receipts. */
  receipt: string | null;
}

/** The payment a given-up call named: reconciliation fetches it once for all such calls. */
export interface GivenUpCall {
  account_id: string;
  resource_id: string;
}

export type NewWebhookCall = Omit<WebhookCallRow, 'seq' | 'processed_at' | 'last_error' | 'gave_up_at' | 'reconciled_at' | 'receipt'>;

const calls = (db: Knex) => db<WebhookCallRow>('provider_webhook_calls');

/** One group commit per database: a burst of calls is kept with one insert. */
const recorders = new WeakMap<Knex, GroupCommit<NewWebhookCall>>();

/** When reconciliation asks about a given-up call: at once, or after its last failed try. */
const RECONCILE_DUE_AT = 'coalesce(next_attempt_at, gave_up_at)';

const givenUpUnreconciled = (db: Knex, call?: GivenUpCall) => {
  const query = calls(db).whereNull('processed_at').whereNotNull('gave_up_at').whereNull('reconciled_at');
  return call ? query.where({ account_id: call.account_id, resource_id: call.resource_id }) : query;
};

export const webhookCallsRepository = {
  /** Kept with the other calls of its burst in one commit; answers its seq. */
  record: (db: Knex, call: NewWebhookCall): Promise<number> => {
    let recorder = recorders.get(db);
    if (!recorder) {
      recorder = new GroupCommit(db, 'provider_webhook_calls');
      recorders.set(db, recorder);
    }
    return recorder.insert(call);
  },

  /** The call, while it is neither processed nor given up. */
  findOpen: (db: Knex, seq: number) => calls(db).where({ seq }).whereNull('processed_at').whereNull('gave_up_at').first(),

  update: (db: Knex, seq: number, changes: Partial<WebhookCallRow>) => calls(db).where({ seq }).update(changes),

  /** Calls whose next attempt is due, longest waiting first. */
  dueSeqs: (db: Knex, now: string, limit: number): Promise<Array<{ seq: number }>> =>
    calls(db)
      .whereNull('processed_at')
      .whereNull('gave_up_at')
      .andWhere('next_attempt_at', '<=', now)
      .orderBy([{ column: 'next_attempt_at' }, { column: 'seq' }])
      .limit(limit)
      .select('seq'),

  /** Payments named by given-up calls not brought in yet and due, one per payment, longest waiting first. */
  givenUpToReconcile: (db: Knex, now: string, limit: number): Promise<GivenUpCall[]> =>
    givenUpUnreconciled(db)
      .whereRaw(`${RECONCILE_DUE_AT} <= ?`, [now])
      .groupBy('account_id', 'resource_id')
      .select('account_id', 'resource_id', db.raw(`min(${RECONCILE_DUE_AT}) as due_at`))
      .orderBy([{ column: 'due_at' }, { column: 'account_id' }, { column: 'resource_id' }])
      .limit(limit),

  updateGivenUp: (db: Knex, call: GivenUpCall, changes: Partial<WebhookCallRow>) => givenUpUnreconciled(db, call).update(changes),
};

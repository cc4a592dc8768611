import type { Knex } from 'knex';
import { tenantTable } from '../../db/tenantTable';
import type { RefundStatus } from '../../providers/types';

/** `creating`: written, not yet confirmed by the provider (the outcome of a call may be unknown); then the provider's status. */
export type RefundRowStatus = 'creating' | RefundStatus;
/** Statuses after which a refund does not change any more. */
export const FINAL_REFUND_STATUSES: ReadonlySet<RefundRowStatus> = new Set(['refunded', 'failed', 'canceled']);
/** Statuses in which a refund's money is not going back: its reservation on the payment is released. */
export const RELEASED_REFUND_STATUSES: ReadonlySet<RefundRowStatus> = new Set(['failed', 'canceled']);

export interface RefundRow {
  id: string;
  account_id: string;
  payment_id: string;
  amount: number;
  currency: string;
  description: string;
  status: RefundRowStatus;
  provider_refund_id: string | null;
  /** What the refund is made for, once (`double-<payment id>`): unique per account. Null for refunds made on request. */
  origin_key: string | null;
  create_attempts: number;
  /** While `creating`: when the finishing job may resume it. */
  next_attempt_at: string | null;
  failure_reason: string | null;
  /** The refund's place among its payment's refunds (1, 2, …): the order they were made in. Null for refunds made before it was kept. */
  sequence: number | null;
  /** The client's own reference of the refund (the store plugin's), unique per account: asked again, the first refund answers. */
  reference: string | null;
  created_at: string;
  updated_at: string;
}

const shared = tenantTable<RefundRow>('refunds');
const { table } = shared;

/** The payment's count of refunds, read in the transaction that just counted one up (its own write). */
async function refundsMade(trx: Knex.Transaction, accountId: string, paymentId: string): Promise<number> {
  const row = await trx('payments')
    .where({ account_id: accountId, id: paymentId })
    .first<{ refunds_made: number } | undefined>('refunds_made');
  if (!row) throw new Error(`Payment ${paymentId} disappeared while its refund was recorded`);
  return Number(row.refunds_made);
}

export const refundsRepository = {
  ...shared,

  insert: (db: Knex, row: RefundRow) => table(db).insert(row),

  forPayment: (db: Knex, accountId: string, paymentId: string): Promise<RefundRow[]> =>
    // When each was made (a refund made at the provider carries the provider's time, though its sequence is taken when
    // we notice it), then `sequence`: refunds made within one second share their created_at.
    table(db).where({ account_id: accountId, payment_id: paymentId }).orderBy('created_at').orderBy('sequence').orderBy('id'),

  findByOriginKey: (db: Knex, accountId: string, originKey: string): Promise<RefundRow | undefined> =>
    table(db).where({ account_id: accountId, origin_key: originKey }).first(),

  findByReference: (db: Knex, accountId: string, reference: string): Promise<RefundRow | undefined> =>
    table(db).where({ account_id: accountId, reference }).first(),

  /** Refunds not yet settled and not looked at since `before`, longest first (reconciliation asks about their payments). */
  unsettled: (db: Knex, before: string, limit: number): Promise<RefundRow[]> =>
    table(db)
      .whereIn('status', ['queued', 'pending', 'processing'])
      .andWhere('updated_at', '<=', before)
      .orderBy('updated_at')
      .limit(limit),

  touch: (db: Knex, row: RefundRow, now: string) =>
    table(db).where({ account_id: row.account_id, id: row.id, status: row.status }).update({ updated_at: now }),

  stalledCreations: (db: Knex, now: string, limit: number): Promise<RefundRow[]> =>
    table(db).where('status', 'creating').andWhere('next_attempt_at', '<=', now).orderBy('next_attempt_at').limit(limit),

  /** Payments with a pending double-payment follow-up and no automatic refund (`double-…` origin key) yet. */
  doublePaymentsWithoutRefund: (db: Knex, limit: number): Promise<Array<{ account_id: string; payment_id: string }>> =>
    db('follow_ups as f')
      .leftJoin('refunds as r', function joinRefund() {
        this.on('r.account_id', '=', 'f.account_id')
          .andOn('r.payment_id', '=', 'f.payment_id')
          .andOnVal('r.origin_key', 'like', 'double-%');
      })
      .where({ 'f.kind': 'double_payment', 'f.status': 'pending' })
      .whereNotNull('f.payment_id')
      .whereNull('r.id')
      .limit(limit)
      .select<Array<{ account_id: string; payment_id: string }>>('f.account_id', 'f.payment_id'),

  /**
   * Reserves `cents` of a paid payment for a refund, if that much is still left of what was paid minus what was
   * refunded (or is being refunded) minus what the bank took back: ONE conditional update, so that of two refunds
   * racing on any number of processes the database lets only as much through as there is. The same update counts
   * the payment's refunds: the refund's sequence, or null when the money is not there.
   */
  reserve: async (trx: Knex.Transaction, accountId: string, paymentId: string, cents: number): Promise<number | null> => {
    const reserved =
      (await trx('payments')
        .where({ account_id: accountId, id: paymentId, status: 'paid' })
        .andWhereRaw('`amount` - `amount_charged_back` - `amount_refund_reserved` >= ?', [cents])
        .update({
          amount_refund_reserved: trx.raw('`amount_refund_reserved` + ?', [cents]),
          refunds_made: trx.raw('`refunds_made` + 1'),
        })) === 1;
    return reserved ? refundsMade(trx, accountId, paymentId) : null;
  },

  /**
   * Takes `cents` of a payment for a refund made at the provider without us (its dashboard): the money went out
   * already, so nothing is refused. Answers the refund's sequence.
   */
  takeForRefundMadeElsewhere: async (trx: Knex.Transaction, accountId: string, paymentId: string, cents: number): Promise<number> => {
    await trx('payments')
      .where({ account_id: accountId, id: paymentId })
      .update({
        amount_refund_reserved: trx.raw('`amount_refund_reserved` + ?', [cents]),
        refunds_made: trx.raw('`refunds_made` + 1'),
      });
    return refundsMade(trx, accountId, paymentId);
  },

  /** Gives back a failed or canceled refund's reservation. */
  release: (trx: Knex.Transaction, accountId: string, paymentId: string, cents: number) =>
    trx('payments')
      .where({ account_id: accountId, id: paymentId })
      .update({
        amount_refund_reserved: trx.raw('case when `amount_refund_reserved` >= ? then `amount_refund_reserved` - ? else 0 end', [
          cents,
          cents,
        ]),
      }),

  updateIfStatus: async (db: Knex, accountId: string, id: string, status: RefundRowStatus, changes: Partial<RefundRow>): Promise<boolean> =>
    (await table(db).where({ account_id: accountId, id, status }).update(changes)) === 1,
};

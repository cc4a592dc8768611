import type { Knex } from 'knex';
import type { SandboxPaymentRow } from './rows';

/**
 * The queries of the sandbox's settling (settlement.ts): its own tables, what a real provider holds on its
 * side. Every change is conditional on the row still being pending, so a read and the job, or two
 * processes, settling at once change it once.
 */

/** A payment of the sandbox with something due: its pending charge or a pending refund on it. */
export interface SandboxDuePayment {
  account_id: string;
  id: string;
}

export type ChargeSettlement = Pick<
  SandboxPaymentRow,
  'status' | 'failure_reason' | 'failure_code' | 'paid_at' | 'chargeback_at' | 'updated_at'
>;

export const sandboxSettlementRepository = {
  findPayment(db: Knex, accountId: string, paymentId: string): Promise<SandboxPaymentRow | undefined> {
    return db<SandboxPaymentRow>('sandbox_payments').where({ account_id: accountId, id: paymentId }).first();
  },

  /** The account (IBAN) of a direct-debit mandate; null for a card mandate or one that is gone. */
  async mandateAccount(db: Knex, accountId: string, mandateId: string | null): Promise<string | null> {
    if (!mandateId) return null;
    const mandate = await db('sandbox_mandates')
      .where({ account_id: accountId, id: mandateId })
      .first<{ consumer_account: string | null } | undefined>('consumer_account');
    return mandate?.consumer_account ?? null;
  },

  /**
   * Which debit on its mandate a recurring charge is, from 1: the recurring charges on the mandate made before
   * it (by creation time, then id), retries counted, plus one.
   */
  async debitNumber(db: Knex, row: SandboxPaymentRow): Promise<number> {
    const [earlier] = await db('sandbox_payments')
      .where({ account_id: row.account_id, mandate_id: row.mandate_id, sequence_type: 'recurring' })
      .andWhere((q) =>
        q.where('created_at', '<', row.created_at).orWhere((same) => same.where('created_at', row.created_at).andWhere('id', '<', row.id)),
      )
      .count<Array<{ n: number | string }>>({ n: '*' });
    return Number(earlier?.n ?? 0) + 1;
  },

  /**
   * Charges back what is left of a paid payment (what was not refunded), once: conditional on nothing having
   * been charged back yet. Answers whether this call did it.
   */
  async chargeBack(db: Knex, row: SandboxPaymentRow, updatedAt: string): Promise<boolean> {
    const left = Number(row.amount) - Number(row.amount_refunded);
    if (left <= 0) return false;
    const moved = await db('sandbox_payments')
      .where({ id: row.id, status: 'paid', amount_charged_back: 0, amount_refunded: row.amount_refunded })
      .update({ amount_charged_back: left, updated_at: updatedAt });
    return moved > 0;
  },

  /** Moves a pending charge to its outcome; answers whether this call moved it (false: it was settled already). */
  async settleCharge(db: Knex, paymentId: string, settlement: ChargeSettlement): Promise<boolean> {
    return (await db('sandbox_payments').where({ id: paymentId, status: 'pending' }).update(settlement)) > 0;
  },

  /**
   * Settles a payment's pending refunds (those of `refundIds`, or all), and in the same transaction brings the
   * payment's `amount_refunded` to the sum of its refunded refunds (`refunded` when that is all of it), summed by
   * the database so two settlers of different refunds at once both count. Answers how many refunds it moved.
   */
  async settleRefunds(db: Knex, accountId: string, paymentId: string, updatedAt: string, refundIds?: string[]): Promise<number> {
    return db.transaction(async (trx) => {
      const pending = trx('sandbox_refunds').where({ account_id: accountId, payment_id: paymentId, status: 'pending' });
      const moved = await (refundIds ? pending.whereIn('id', refundIds) : pending).update({ status: 'refunded' });
      if (!moved) return 0;
      const refundedSum =
        "(select coalesce(sum(`amount`), 0) from `sandbox_refunds` where `account_id` = ? and `payment_id` = ? and `status` = 'refunded')";
      await trx('sandbox_payments')
        .where({ account_id: accountId, id: paymentId })
        .update({
          amount_refunded: trx.raw(refundedSum, [accountId, paymentId]),
          status: trx.raw(`case when \`status\` = 'paid' and \`amount\` <= ${refundedSum} then 'refunded' else \`status\` end`, [
            accountId,
            paymentId,
          ]),
          updated_at: updatedAt,
        });
      return moved;
    });
  },

  /** The ids of a payment's pending refunds due by `dueBy`. */
  dueRefundIds(db: Knex, accountId: string, paymentId: string, dueBy: string): Promise<string[]> {
    return db('sandbox_refunds')
      .where({ account_id: accountId, payment_id: paymentId, status: 'pending' })
      .andWhere('settle_at', '<=', dueBy)
      .pluck('id');
  },

  /** Payments with a pending charge, a pending refund or a charge-back due by `dueBy`, the longest due first. */
  async duePayments(db: Knex, dueBy: string, limit: number): Promise<SandboxDuePayment[]> {
    const charges = await db('sandbox_payments')
      .where({ status: 'pending', sequence_type: 'recurring' })
      .andWhere('settle_at', '<=', dueBy)
      .orderBy('settle_at')
      .limit(limit)
      .select<Array<SandboxDuePayment & { settle_at: string }>>('account_id', 'id', 'settle_at');
    const refunds = await db('sandbox_refunds')
      .where({ status: 'pending' })
      .andWhere('settle_at', '<=', dueBy)
      .orderBy('settle_at')
      .limit(limit)
      .select<Array<{ account_id: string; id: string; settle_at: string }>>('account_id', 'payment_id as id', 'settle_at');
    const chargebacks = await db('sandbox_payments')
      .where({ status: 'paid', amount_charged_back: 0 })
      .andWhere('chargeback_at', '<=', dueBy)
      .orderBy('chargeback_at')
      .limit(limit)
      .select<Array<SandboxDuePayment & { settle_at: string }>>('account_id', 'id', 'chargeback_at as settle_at');
    // A payment with a due charge and a due refund is named once: settling it does both.
    const due = new Map<string, SandboxDuePayment>();
    for (const row of [...charges, ...refunds, ...chargebacks].sort((a, b) => String(a.settle_at).localeCompare(String(b.settle_at)))) {
      if (!due.has(row.id)) due.set(row.id, { account_id: row.account_id, id: row.id });
    }
    return [...due.values()].slice(0, limit);
  },
};

import type { Knex } from 'knex';
import { msAfter, toDbDateTime } from '../../time';
import { settleRecurringCharge } from './outcomes';
import type { SandboxPaymentRow } from './rows';
import { sandboxSettlementRepository as repository, type SandboxDuePayment } from './settlementRepository';

export type { SandboxDuePayment } from './settlementRepository';

/**
 * How long after making them the sandbox settles a recurring charge and a refund by itself (the
 * `settle-sandbox` job): a few seconds, so a newcomer sees `pending` first and then the outcome, as a
 * provider's webhook would bring it, without waiting for the days a real SEPA debit takes.
 */
export const SANDBOX_SETTLES_AFTER_MS = 3_000;

/** The `settle_at` of a charge or refund the sandbox makes at `now`. */
export const settleAtFor = (now: Date): string => toDbDateTime(msAfter(now, SANDBOX_SETTLES_AFTER_MS));

/**
 * A pending recurring charge settled with its outcome (outcomes.ts), at `now`. Conditional on its being
 * pending still: of two settlers one moves it and the other reads what it became. Answers the row as it
 * is now and whether this call moved it.
 */
export async function settlePendingCharge(
  db: Knex,
  row: SandboxPaymentRow,
  now: Date,
): Promise<{ row: SandboxPaymentRow; moved: boolean }> {
  if (row.sequence_type !== 'recurring' || row.status !== 'pending') return { row, moved: false };
  const stamp = toDbDateTime(now);
  const outcome = settleRecurringCharge(Number(row.amount), row.method === 'creditcard' ? 'creditcard' : 'directdebit');
  const settlement = { ...outcome, paid_at: outcome.status === 'paid' ? stamp : null, updated_at: stamp };
  if (await repository.settleCharge(db, row.id, settlement)) return { row: { ...row, ...settlement }, moved: true };
  return { row: (await repository.findPayment(db, row.account_id, row.id)) ?? row, moved: false };
}

/** Settles a payment's pending refunds (those of `refundIds`, or all of them) at `now`; answers how many it moved. */
export function settlePendingRefunds(db: Knex, accountId: string, paymentId: string, now: Date, refundIds?: string[]): Promise<number> {
  return repository.settleRefunds(db, accountId, paymentId, toDbDateTime(now), refundIds);
}

/** Payments whose charge or refunds are due to settle at `now`, the longest due first. */
export function sandboxPaymentsDue(db: Knex, now: Date, limit: number): Promise<SandboxDuePayment[]> {
  return repository.duePayments(db, toDbDateTime(now), limit);
}

/**
 * Settles what is due of one payment at `now`: its pending charge and its pending refunds whose
 * `settle_at` has come. Answers whether anything moved, so the caller reports the change (as a provider
 * calls a webhook) only once, whichever process moved it.
 */
export async function settleDueOf(db: Knex, due: SandboxDuePayment, now: Date): Promise<boolean> {
  const row = await repository.findPayment(db, due.account_id, due.id);
  if (!row) return false;
  const dueBy = toDbDateTime(now);
  const chargeDue = row.status === 'pending' && row.settle_at !== null && String(row.settle_at) <= dueBy;
  const charge = chargeDue ? await settlePendingCharge(db, row, now) : { moved: false };
  const refundIds = await repository.dueRefundIds(db, due.account_id, due.id, dueBy);
  const refunds = refundIds.length ? await settlePendingRefunds(db, due.account_id, due.id, now, refundIds) : 0;
  return charge.moved || refunds > 0;
}

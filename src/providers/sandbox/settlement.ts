import type { Knex } from 'knex';
import { msAfter, toDbDateTime } from '../../time';
import { settleDebit } from './outcomes';
import type { SandboxPaymentRow } from './rows';
import { sandboxSettlementRepository as repository, type SandboxDuePayment } from './settlementRepository';

export type { SandboxDuePayment } from './settlementRepository';

/**
 * How long after making them the sandbox settles a recurring charge and a refund by itself (the
 * `settle-sandbox` job): a few seconds, so a newcomer sees `pending` first and then the outcome, as a
 * provider's webhook would bring it, without waiting for the days a real SEPA debit takes.
 */
export const SANDBOX_SETTLES_AFTER_MS = 3_000;

const DAY_MS = 24 * 60 * 60 * 1000;

/** The `settle_at` of a charge or refund the sandbox makes at `now`. */
export const settleAtFor = (now: Date): string => toDbDateTime(msAfter(now, SANDBOX_SETTLES_AFTER_MS));

/**
 * A pending recurring charge settled with its outcome (outcomes.ts: its mandate's magic IBAN for the debits
 * it names, else the cents of the amount), at `now`; a debit to be charged back gets its `chargeback_at`.
 * Conditional on its being pending still: of two settlers one moves it and the other reads what it
 * became. Answers the row as it is now and whether this call moved it.
 */
export async function settlePendingCharge(
  db: Knex,
  row: SandboxPaymentRow,
  now: Date,
): Promise<{ row: SandboxPaymentRow; moved: boolean }> {
  if (row.sequence_type !== 'recurring' || row.status !== 'pending') return { row, moved: false };
  const stamp = toDbDateTime(now);
  const method = row.method === 'creditcard' ? 'creditcard' : 'directdebit';
  const iban = method === 'directdebit' ? await repository.mandateAccount(db, row.account_id, row.mandate_id) : null;
  const { chargeBackAfterDays, ...outcome } = settleDebit(Number(row.amount), method, iban, await repository.debitNumber(db, row));
  const settlement = {
    ...outcome,
    paid_at: outcome.status === 'paid' ? stamp : null,
    chargeback_at:
      outcome.status === 'paid' && chargeBackAfterDays !== null ? toDbDateTime(msAfter(now, chargeBackAfterDays * DAY_MS)) : null,
    updated_at: stamp,
  };
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
 * `settle_at` has come, and its charge-back when its `chargeback_at` has (never in the run that paid it,
 * so our side hears of the payment paid before it hears of the charge-back). Answers whether anything
 * moved, so the caller reports the change (as a provider calls a webhook) only once, whichever process
 * moved it.
 */
export async function settleDueOf(db: Knex, due: SandboxDuePayment, now: Date): Promise<boolean> {
  const row = await repository.findPayment(db, due.account_id, due.id);
  if (!row) return false;
  const dueBy = toDbDateTime(now);
  const chargeDue = row.status === 'pending' && row.settle_at !== null && String(row.settle_at) <= dueBy;
  const charge = chargeDue ? await settlePendingCharge(db, row, now) : { moved: false };
  const refundIds = await repository.dueRefundIds(db, due.account_id, due.id, dueBy);
  const refunds = refundIds.length ? await settlePendingRefunds(db, due.account_id, due.id, now, refundIds) : 0;
  const current = refunds > 0 ? await repository.findPayment(db, due.account_id, due.id) : row;
  const chargeBackAt =
    !charge.moved && current?.status === 'paid' && Number(current.amount_charged_back) === 0 ? current.chargeback_at : null;
  const chargeBackDue = chargeBackAt !== null && String(chargeBackAt) <= dueBy;
  const chargedBack = chargeBackDue && current ? await repository.chargeBack(db, current, dueBy) : false;
  return charge.moved || refunds > 0 || chargedBack;
}

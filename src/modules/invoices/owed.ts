import type { Knex } from 'knex';
import type { AppContext } from '../../context';
import { enqueueAccountEvent } from '../../events/events';
import { msAfter, toDbDateTime } from '../../time';
import { paymentsRepository } from '../payments/repository';
import { chargesRepository } from '../subscriptions/chargesRepository';
import { creditInvoice } from './credits';
import { invoicesRepository } from './repository';
import { issueInvoice, recordInvoice } from './issuing';
import { owedInvoicesRepository, type OwedInvoiceRow } from './owedRepository';
import { paymentInvoiceSubject } from './paymentInvoices';
import { errorMessage } from '../../errors';

/** Failed attempts after which the merchant is sent `invoice.issue_failed` (the attempts go on). */
export const ISSUE_ATTEMPTS_BEFORE_EVENT = 5;
/** The wait before the next attempt: doubling from a minute, at most six hours. */
const retryDelayMs = (attempts: number) => Math.min(60_000 * 2 ** Math.max(attempts - 1, 0), 6 * 3_600_000);

/**
 * Why an attempt failed, without the statement a database error carries (knex puts the SQL and its
 * values before ` - `): what is kept on the row, logged and sent in the event names no customer.
 */
function reasonOf(error: unknown): string {
  const message = errorMessage(error);
  return (message.split(' - ').pop() ?? message).slice(0, 255);
}

/** The owed invoice, in the issuing transaction: the charge's period's, or the payment's own. */
async function invoiceOwed(ctx: AppContext, trx: Knex.Transaction, owed: OwedInvoiceRow): Promise<void> {
  const payment = await paymentsRepository.find(trx, owed.account_id, owed.payment_id);
  if (!payment) return;
  if (owed.charge_id) {
    const charge = await chargesRepository.find(trx, owed.account_id, owed.charge_id);
    if (charge) await recordInvoice(ctx, trx, charge, payment);
    return;
  }
  const subject = await paymentInvoiceSubject(ctx, trx, payment);
  if (subject) await issueInvoice(ctx, trx, subject);
}

/**
 * Money given back while the invoice was owed found no invoice to credit then (its credit waits for
 * it): credited now, in the transaction that issues it, once per source as every credit note is.
 */
async function creditGivenBack(ctx: AppContext, trx: Knex.Transaction, owed: OwedInvoiceRow): Promise<void> {
  const { account_id: accountId, payment_id: paymentId } = owed;
  for (const refund of await invoicesRepository.refundedOfPayment(trx, accountId, paymentId))
    await creditInvoice(ctx, trx, {
      accountId,
      paymentId,
      amount: Number(refund.amount),
      reason: 'refund',
      sourceKey: `refund-${refund.id}`,
    });
  const payment = await paymentsRepository.find(trx, accountId, paymentId);
  if (payment?.status !== 'charged_back') return;
  const chargedBack = Number(payment.amount_charged_back ?? 0);
  await creditInvoice(ctx, trx, {
    accountId,
    paymentId,
    amount: chargedBack > 0 ? chargedBack : payment.amount,
    reason: 'chargeback',
    sourceKey: `chargeback-${paymentId}`,
  });
}

/** Claims, issues and closes one owed invoice in `trx`; false when it was done already. */
async function issueIn(ctx: AppContext, trx: Knex.Transaction, owed: OwedInvoiceRow): Promise<boolean> {
  const now = toDbDateTime(ctx.clock.now());
  if (!(await owedInvoicesRepository.claim(trx, owed.id, now))) return false;
  await invoiceOwed(ctx, trx, owed);
  await owedInvoicesRepository.markDone(trx, owed.id, now);
  await creditGivenBack(ctx, trx, owed);
  return true;
}

/**
 * A failed attempt: counted, the next one later; after ISSUE_ATTEMPTS_BEFORE_EVENT the merchant is
 * sent `invoice.issue_failed` once (the payment is recorded as paid; its invoice is what waits).
 */
async function recordFailure(ctx: AppContext, owed: OwedInvoiceRow, error: unknown): Promise<void> {
  const reason = reasonOf(error);
  const current = await owedInvoicesRepository.find(ctx.db, owed.id);
  if (!current || current.status !== 'owed') return;
  const attempts = Number(current.attempts) + 1;
  const now = ctx.clock.now();
  await owedInvoicesRepository.recordFailure(ctx.db, owed.id, {
    attempts,
    next_attempt_at: toDbDateTime(msAfter(now, retryDelayMs(attempts))),
    last_error: reason,
    updated_at: toDbDateTime(now),
  });
  ctx.logger.warn('invoice not issued yet; tried again later', {
    accountId: owed.account_id,
    paymentId: owed.payment_id,
    attempts,
    error: reason,
  });
  if (attempts < ISSUE_ATTEMPTS_BEFORE_EVENT || current.failure_reported) return;
  await ctx.db.transaction(async (trx) => {
    if (!(await owedInvoicesRepository.markReported(trx, owed.id))) return;
    await enqueueAccountEvent(
      trx,
      owed.account_id,
      {
        name: 'invoice.issue_failed',
        resourceId: owed.payment_id,
        body: { payment_id: owed.payment_id, charge_id: owed.charge_id, attempts, reason },
      },
      toDbDateTime(now),
    );
  });
}

/**
 * Numbers and issues one owed invoice in its own transaction. A failure rolls back only that
 * transaction: the invoice stays owed and is tried again (`issue-owed-invoices`). True when it is done.
 */
export async function issueOwedInvoice(ctx: AppContext, owed: OwedInvoiceRow): Promise<boolean> {
  try {
    await ctx.db.transaction((trx) => issueIn(ctx, trx, owed));
    return true;
  } catch (error) {
    await recordFailure(ctx, owed, error);
    return false;
  }
}

/** After a payment's status change committed: its owed invoices, issued at once where they can be. */
export async function issueOwedOfPayment(ctx: AppContext, accountId: string, paymentId: string): Promise<void> {
  for (const owed of await owedInvoicesRepository.owedOfPayment(ctx.db, accountId, paymentId)) await issueOwedInvoice(ctx, owed);
}

/**
 * Money given back on a payment whose invoice is still owed: issued first, inside the caller's
 * transaction but in a savepoint of its own, so the credit note has an invoice to correct — and a
 * failure to number it undoes only the savepoint (the invoice stays owed), never the money recorded.
 */
export async function issueOwedWithin(ctx: AppContext, trx: Knex.Transaction, accountId: string, paymentId: string): Promise<void> {
  for (const owed of await owedInvoicesRepository.owedOfPayment(trx, accountId, paymentId)) {
    try {
      await trx.transaction((savepoint) => issueIn(ctx, savepoint, owed));
    } catch (error) {
      ctx.logger.warn('owed invoice not issued before crediting; the job issues it', {
        accountId,
        paymentId,
        error: reasonOf(error),
      });
    }
  }
}

/** For the `issue-owed-invoices` job: owed invoices whose attempt is due, a batch at a time. */
export async function issueDueOwedInvoices(
  ctx: AppContext,
  signal: AbortSignal,
  batch = 100,
): Promise<{ processed: number; failed: number }> {
  let processed = 0;
  let failed = 0;
  const seen = new Set<string>();
  while (!signal.aborted) {
    const due = (await owedInvoicesRepository.due(ctx.db, toDbDateTime(ctx.clock.now()), batch)).filter((row) => !seen.has(row.id));
    if (!due.length) break;
    for (const owed of due) {
      seen.add(owed.id);
      if (await issueOwedInvoice(ctx, owed)) processed += 1;
      else failed += 1;
    }
  }
  return { processed, failed };
}

/** Every paid payment's owed invoices are issued right after its status change commits. */
export function registerOwedInvoices(ctx: AppContext): void {
  ctx.settlements.onCommitted('all', async ({ payment, to }) => {
    if (to === 'paid') await issueOwedOfPayment(ctx, payment.account_id, payment.id);
  });
}

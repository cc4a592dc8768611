import type { Knex } from 'knex';
import type { AppContext } from '../../context';
import type { CreditNoteRequest } from './creditNotes';
import { creditInvoice } from './credits';
import { issueOwedWithin } from './owed';

/**
 * Money given back on a paid payment (a refund, a chargeback), in the transaction that records it:
 * the payment's invoice is corrected by a credit note here and, when that invoice goes to the
 * account's bookkeeping system, by a credit invoice there — each once per `sourceKey`. All of it
 * given back credits the invoice's own lines (with their ledger accounts); part of it, the note's.
 */
export async function creditMoneyBack(ctx: AppContext, trx: Knex.Transaction, request: CreditNoteRequest): Promise<void> {
  // An invoice still owed (numbering failed after payment) is issued first: the note corrects it.
  await issueOwedWithin(ctx, trx, request.accountId, request.paymentId);
  await creditInvoice(ctx, trx, request);
}

/**
 * A refund that went through corrects the payment's invoice: a credit note here (and a credit invoice in the
 * account's bookkeeping system), in the transaction that records it as `refunded`, once per refund.
 */
export function registerRefundCredits(ctx: AppContext): void {
  ctx.refundSettlements.on((trx, refund) =>
    creditMoneyBack(ctx, trx, {
      accountId: refund.account_id,
      paymentId: refund.payment_id,
      amount: Number(refund.amount),
      reason: 'refund',
      sourceKey: `refund-${refund.id}`,
    }),
  );
}

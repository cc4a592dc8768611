import type { AppContext } from '../../context';
import type { Account } from '../accounts/account';
import { NotFoundError } from '../../errors';
import { paymentsRepository } from '../payments/repository';
import { refundsRepository, type RefundRow } from './repository';
import { syncRefundsOf } from './statusChange';

export { refundableCents, requestRefund, resumeRefund, type RefundRequest } from './pipeline';

/** A payment fetched from its provider brings its refunds up to date too (the provider calls its webhook for them). */
export function registerRefundSync(ctx: AppContext): void {
  ctx.paymentFetches.on(({ payment, remote }) => syncRefundsOf(ctx, payment, remote.amountRefunded));
}

/** `GET /api/v2/payments/{id}/refunds`: the payment's refunds, oldest first. */
export async function listRefunds(ctx: AppContext, account: Account, paymentId: string): Promise<RefundRow[]> {
  const payment = await paymentsRepository.find(ctx.db, account.id, paymentId);
  if (!payment) throw new NotFoundError('Payment');
  return refundsRepository.forPayment(ctx.db, account.id, paymentId);
}

export async function getRefund(ctx: AppContext, account: Account, paymentId: string, refundId: string): Promise<RefundRow> {
  const row = await refundsRepository.find(ctx.db, account.id, refundId);
  if (!row || row.payment_id !== paymentId) throw new NotFoundError('Refund');
  return row;
}

import type { Knex } from 'knex';
import type { AppContext } from '../../context';
import type { Account } from '../accounts/account';
import { ProviderRejectedError } from '../../providers/errors';
import { msBefore, toDbDateTime } from '../../time';
import { accountsRepository } from '../accounts/repository';
import { resumePayment } from '../payments/pipeline';
import { paymentsRepository, type PaymentRow } from '../payments/repository';
import { applyProviderPayment } from '../payments/statusChange';
import type { FollowUpRow } from './repository';
import { errorMessage } from '../../errors';

/**
 * A follow-up the merchant settled by hand (paid elsewhere, written off) charges nothing more: its
 * payment link is withdrawn in the settling transaction, and its retries and link payments still
 * under way at the provider are cancelled after the commit, where the provider still allows it.
 */

/** Payments that may still take money and can be stopped: open, or pending (a SEPA debit within its cancel window). */
const CANCELLABLE = ['open', 'pending'];
/**
 * A payment still being created when the follow-up was settled is finished within minutes (or given up after a day); a SEPA debit can be
 * cancelled for about a day.
 */
const LEFTOVER_WINDOW_MS = 2 * 24 * 60 * 60 * 1000;

/** The follow-up's retries, and the payments of its link, in these statuses. */
function paymentsOf(db: Knex, followUp: FollowUpRow, statuses: string[]) {
  return paymentsRepository.ofFollowUp(db, { accountId: followUp.account_id, id: followUp.id, linkId: followUp.link_id }, statuses);
}

/** A payment whose creation answer was lost, finished with its own key; null when the provider refused it (nothing exists there). */
async function finished(ctx: AppContext, account: Account, payment: PaymentRow): Promise<PaymentRow | null> {
  try {
    return await resumePayment(ctx, account, payment, { answeredInRequest: false });
  } catch (error) {
    if (error instanceof ProviderRejectedError) return null;
    throw error;
  }
}

/**
 * Cancels one payment at the provider and records what it answers. One still `creating` (its answer
 * lost) is first finished with its own key, so that what the provider holds can be cancelled too.
 * A refusal (paid or failed already, a SEPA debit past its cancel window) is logged and left: if it
 * is paid later, the follow-up keeps the status the merchant gave it.
 */
async function cancelAtProvider(ctx: AppContext, account: Account, payment: PaymentRow): Promise<void> {
  const what = { accountId: payment.account_id, paymentId: payment.id, purpose: payment.purpose };
  try {
    const current = payment.status === 'creating' ? await finished(ctx, account, payment) : payment;
    if (!current || !CANCELLABLE.includes(current.status) || current.provider_payment_id === null) return;
    const provider = await ctx.providers.forAccount(account);
    const answered = await provider.cancelPayment(current.provider_payment_id);
    const recorded = await applyProviderPayment(ctx, current, answered, { answeredInRequest: false });
    ctx.logger.info('payment of a settled follow-up canceled at the provider', { ...what, status: recorded.status });
  } catch (error) {
    if (error instanceof ProviderRejectedError) {
      ctx.logger.warn('payment of a settled follow-up could not be canceled; it takes its course', { ...what, error: errorMessage(error) });
      return;
    }
    ctx.logger.warn('payment of a settled follow-up not canceled yet; the follow-ups job tries again', {
      ...what,
      error: errorMessage(error),
    });
  }
}

/** After the settling commit (no provider call holds a transaction open): a first attempt right away, in the background. */
export function cancelFollowUpPayments(ctx: AppContext, account: Account, followUp: FollowUpRow): void {
  ctx.background.run('cancel the payments of a follow-up settled by hand', async () => {
    for (const payment of await paymentsOf(ctx.db, followUp, ['creating', ...CANCELLABLE])) {
      await cancelAtProvider(ctx, account, payment);
    }
  });
}

/**
 * For the follow-ups job: payments of follow-ups settled in the last two days that are still open or
 * pending — one that reached the provider only after the settling (still `creating` then, finished
 * since by the job that does that), or one the first attempt could not cancel. One the provider
 * refuses to cancel is asked again each run until it settles or the two days are over.
 */
export async function cancelLeftoverPayments(ctx: AppContext): Promise<number> {
  const since = toDbDateTime(msBefore(ctx.clock.now(), LEFTOVER_WINDOW_MS));
  // A link's payments only when the link was withdrawn (settled by hand, or deleted): an expired link's late payment is the payer's.
  const payments = await paymentsRepository.ofFollowUpsResolvedSince(ctx.db, since, CANCELLABLE);
  for (const payment of payments) {
    const account = await accountsRepository.findById(ctx.db, payment.account_id);
    if (account) await cancelAtProvider(ctx, account, payment);
  }
  return payments.length;
}

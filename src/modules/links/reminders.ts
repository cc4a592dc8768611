import type { AppContext } from '../../context';
import { queueMail } from '../../mail/queue';
import { toDbDateTime } from '../../time';
import { accountsRepository } from '../accounts/repository';
import { customersRepository } from '../customers/repository';
import { amountDueNow } from './checkout';
import { paymentLinksRepository, type PaymentLinkRow } from './repository';
import { errorMessage } from '../../errors';

const BATCH_SIZE = 100;

export interface ReminderRun {
  sent: number;
  failed: number;
}

/**
 * E-mails the customer of every open link whose `reminder_at` has come, once. Claiming the link
 * (`reminder_sent_at`) and queueing the mail happen in one transaction, and the mail carries a
 * dedupe key, so a crash or a second instance never sends a reminder twice and never loses one.
 * The mail itself goes out after the commit (the mail outbox).
 */
export async function sendDueReminders(ctx: AppContext, signal: AbortSignal): Promise<ReminderRun> {
  const now = toDbDateTime(ctx.clock.now());
  const run: ReminderRun = { sent: 0, failed: 0 };
  const due = await paymentLinksRepository.dueForReminder(ctx.db, now, BATCH_SIZE);
  for (const link of due) {
    if (signal.aborted) break;
    try {
      if (await remind(ctx, link, now)) run.sent += 1;
    } catch (error) {
      run.failed += 1;
      ctx.logger.error('payment link reminder failed', { link: link.id, error: errorMessage(error) });
    }
  }
  return run;
}

async function remind(ctx: AppContext, link: PaymentLinkRow, now: string): Promise<boolean> {
  return ctx.db.transaction(async (trx) => {
    const claimed = await paymentLinksRepository.claimReminder(trx, link.id, now);
    if (claimed !== 1) return false; // paid, cancelled or reminded meanwhile
    const customer = link.customer_id === null ? undefined : await customersRepository.find(trx, link.account_id, link.customer_id);
    const account = await accountsRepository.findById(trx, link.account_id);
    if (!customer || !account) return false;
    await queueMail(trx, ctx, {
      accountId: link.account_id,
      to: customer.email,
      locale: customer.locale,
      dedupeKey: `link-reminder:${link.id}`,
      template: 'link-reminder',
      data: {
        merchantName: account.display_name ?? account.name,
        customerName: `${customer.first_name} ${customer.last_name}`.trim() || null,
        description: link.description,
        amountCents: amountDueNow(link),
        currency: link.currency,
        url: `${ctx.config.publicUrl}/pay/${link.id}`,
        expiresAt: link.expires_at === null ? null : link.expires_at.slice(0, 10),
      },
    });
    return true;
  });
}

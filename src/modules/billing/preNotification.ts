import type { AppContext } from '../../context';
import { queueMail } from '../../mail/queue';
import { mailsRepository } from '../../mail/repository';
import { formatDate } from '../../time';
import { daysAfter } from '../../time/calendar';
import { accountsRepository } from '../accounts/repository';
import { subscriptionsRepository } from '../subscriptions/repository';

/**
 * SEPA asks the creditor to tell the debtor the amount and date of each direct debit in advance.
 * For accounts that set `pre_notification_days`, every active subscription on a direct-debit
 * mandate whose next charge is that many days after `date` (or fewer, when a run was missed)
 * gets one e-mail per charge date, naming the creditor id and linking to the portal: the dedupe key
 * makes a repeated run send nothing new.
 */
export async function sendPreNotifications(ctx: AppContext, date: string): Promise<number> {
  const accounts = await accountsRepository.withPreNotification(ctx.db);
  let queued = 0;
  for (const account of accounts) {
    const days = account.pre_notification_days;
    const rows = await subscriptionsRepository.dueForPreNotification(ctx.db, account.id, { after: date, until: daysAfter(date, days) });
    for (const row of rows) {
      const chargeDate = formatDate(row.next_payment_at);
      const dedupeKey = `charge-notice:${row.subscription_id}:${chargeDate}`;
      if (await mailsRepository.findByDedupeKey(ctx.db, dedupeKey)) continue;
      await queueMail(ctx.db, ctx, {
        accountId: row.account_id,
        to: row.email,
        locale: row.locale,
        dedupeKey,
        template: 'charge-notice',
        data: {
          merchantName: row.merchant,
          contactEmail: row.contact_email,
          creditorId: row.creditor_id,
          portalUrl: `${ctx.config.publicUrl}/portal`,
          customerName: `${row.first_name} ${row.last_name}`.trim() || null,
          description: row.name,
          amountCents: row.next_amount,
          currency: row.currency,
          chargeDate,
          mandateReference: row.mandate_reference,
        },
      });
      queued += 1;
    }
  }
  return queued;
}

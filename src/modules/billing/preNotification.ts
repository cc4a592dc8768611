import type { AppContext } from '../../context';
import { queueMail } from '../../mail/queue';
import { formatDate } from '../../time';
import { daysAfter } from '../../time/calendar';

interface Due {
  subscription_id: string;
  account_id: string;
  name: string;
  next_payment_at: string;
  next_amount: number;
  currency: string;
  email: string;
  locale: string | null;
  first_name: string;
  last_name: string;
  mandate_reference: string | null;
  merchant: string;
  days: number;
}

/**
 * SEPA asks the creditor to tell the debtor the amount and date of each direct debit in advance.
 * For accounts that set `pre_notification_days`, every active subscription on a direct-debit
 * mandate whose next charge is that many days after `date` (or fewer, when a run was missed)
 * gets one e-mail per charge date: the dedupe key makes a repeated run send nothing new.
 */
export async function sendPreNotifications(ctx: AppContext, date: string): Promise<number> {
  const accounts = await ctx.db('accounts').whereNotNull('pre_notification_days').select('id', 'pre_notification_days');
  let queued = 0;
  for (const account of accounts as Array<{ id: string; pre_notification_days: number }>) {
    const days = account.pre_notification_days;
    const rows = (await ctx
      .db('subscriptions')
      .join('customers', 'customers.id', 'subscriptions.customer_id')
      .join('mandates', 'mandates.id', 'subscriptions.provider_mandate_id')
      .join('accounts', 'accounts.id', 'subscriptions.account_id')
      .where('subscriptions.account_id', account.id)
      .where('subscriptions.status', 'active')
      .where('mandates.method', 'directdebit')
      .where('subscriptions.next_payment_at', '>', date)
      .where('subscriptions.next_payment_at', '<=', daysAfter(date, days))
      .select(
        'subscriptions.id as subscription_id',
        'subscriptions.account_id',
        'subscriptions.name',
        'subscriptions.next_payment_at',
        'subscriptions.next_amount',
        'subscriptions.currency',
        'customers.email',
        'customers.locale',
        'customers.first_name',
        'customers.last_name',
        'mandates.mandate_reference',
        ctx.db.raw('COALESCE(accounts.display_name, accounts.name) as merchant'),
      )) as Due[];
    for (const row of rows) {
      const chargeDate = formatDate(row.next_payment_at);
      const dedupeKey = `charge-notice:${row.subscription_id}:${chargeDate}`;
      if (await ctx.db('outgoing_mails').where({ dedupe_key: dedupeKey }).first('id')) continue;
      await queueMail(ctx.db, ctx, {
        accountId: row.account_id,
        to: row.email,
        locale: row.locale,
        dedupeKey,
        template: 'charge-notice',
        data: {
          merchantName: row.merchant,
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

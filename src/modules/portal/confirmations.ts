import type { Knex } from 'knex';
import type { AppContext } from '../../context';
import { queueMail } from '../../mail/queue';
import { formatDate, formatNullableDate } from '../../time';
import { confirmationRecipientOf } from '../customers/confirmationRecipient';
import type { SubscriptionRow } from '../subscriptions/repository';

/**
 * The confirmation mails of the portal's actions, queued in the transaction of the change they
 * confirm (the mail exists exactly when the change does), in the customer's locale. Each has a
 * dedupe key naming what it confirms, so the same change is never confirmed twice. The change of
 * payment method is confirmed by the takeover that makes it (takeovers/confirmation.ts).
 */

export async function confirmCancelled(ctx: AppContext, trx: Knex, after: SubscriptionRow, reason: string | null): Promise<void> {
  const to = await confirmationRecipientOf(ctx, trx, after.account_id, after.customer_id);
  if (!to || after.cancel_at === null) return;
  const endsOn = formatDate(after.cancel_at);
  await queueMail(trx, ctx, {
    accountId: to.accountId,
    to: to.to,
    locale: to.locale,
    template: 'portal-cancelled',
    data: { ...to.base, subscription: after.name, endsOn, reason },
    dedupeKey: `portal-cancelled:${after.id}:${endsOn}`,
  });
}

export async function confirmPaused(ctx: AppContext, trx: Knex, after: SubscriptionRow): Promise<void> {
  const to = await confirmationRecipientOf(ctx, trx, after.account_id, after.customer_id);
  const until = formatNullableDate(after.resume_at);
  if (!to || until === null) return;
  await queueMail(trx, ctx, {
    accountId: to.accountId,
    to: to.to,
    locale: to.locale,
    template: 'portal-paused',
    data: { ...to.base, subscription: after.name, pausedUntil: until },
    dedupeKey: `portal-paused:${after.id}:${after.updated_at}`,
  });
}

export async function confirmResumed(ctx: AppContext, trx: Knex, after: SubscriptionRow): Promise<void> {
  const to = await confirmationRecipientOf(ctx, trx, after.account_id, after.customer_id);
  if (!to) return;
  await queueMail(trx, ctx, {
    accountId: to.accountId,
    to: to.to,
    locale: to.locale,
    template: 'portal-resumed',
    data: { ...to.base, subscription: after.name, nextChargeDate: formatNullableDate(after.next_payment_at) },
    dedupeKey: `portal-resumed:${after.id}:${after.updated_at}`,
  });
}

export async function confirmSkipped(ctx: AppContext, trx: Knex, after: SubscriptionRow, skippedDate: string): Promise<void> {
  const to = await confirmationRecipientOf(ctx, trx, after.account_id, after.customer_id);
  if (!to) return;
  await queueMail(trx, ctx, {
    accountId: to.accountId,
    to: to.to,
    locale: to.locale,
    template: 'portal-skipped',
    data: { ...to.base, subscription: after.name, skippedDate, nextChargeDate: formatNullableDate(after.next_payment_at) },
    dedupeKey: `portal-skipped:${after.id}:${skippedDate}`,
  });
}

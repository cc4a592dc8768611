import type { Knex } from 'knex';
import type { AppContext } from '../../context';
import { queueMail } from '../../mail/queue';
import { subscriptionMailer } from '../../events/storeEvents';
import type { PortalActionBase } from '../../mail/templates/portalActions';
import { formatDate, formatNullableDate } from '../../time';
import { merchantProfileOf } from '../accounts/profile';
import { customersRepository } from '../customers/repository';
import { mandateLabel } from '../mandates/display';
import type { MandateRow } from '../mandates/repository';
import type { SubscriptionRow } from '../subscriptions/repository';
import { portalOverviewRepository } from './overviewRepository';

/**
 * The confirmation mails of the portal's actions, queued in the transaction of the change they
 * confirm (the mail exists exactly when the change does), in the customer's locale. Each has a
 * dedupe key naming what it confirms, so the same change is never confirmed twice.
 */

interface Recipient {
  accountId: string;
  to: string;
  locale: string | null;
  base: PortalActionBase;
}

async function recipientOf(ctx: AppContext, trx: Knex, accountId: string, customerId: string): Promise<Recipient | null> {
  // The account left these mails to its store's plugin, which hears of the change by callback: never both.
  if ((await subscriptionMailer(trx, accountId)) === 'store') return null;
  const customer = await customersRepository.find(trx, accountId, customerId);
  if (!customer?.email) return null;
  const merchant = await merchantProfileOf(trx, accountId);
  const name = [customer.first_name, customer.last_name].filter(Boolean).join(' ').trim();
  return {
    accountId,
    to: customer.email,
    locale: customer.locale,
    base: {
      merchantName: merchant.displayName,
      contactEmail: merchant.contactEmail,
      customerName: name || null,
      portalUrl: `${ctx.config.publicUrl}/portal`,
    },
  };
}

export async function confirmCancelled(ctx: AppContext, trx: Knex, after: SubscriptionRow, reason: string | null): Promise<void> {
  const to = await recipientOf(ctx, trx, after.account_id, after.customer_id);
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
  const to = await recipientOf(ctx, trx, after.account_id, after.customer_id);
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
  const to = await recipientOf(ctx, trx, after.account_id, after.customer_id);
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
  const to = await recipientOf(ctx, trx, after.account_id, after.customer_id);
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

/** Subscriptions that are or will be charged on a mandate: the ones the mail says now use it. */
const IN_USE = ['draft', 'active', 'paused'] as const;

/**
 * The customer's change of payment method in the portal is done (its takeover link was paid and
 * the new mandate took over), in the settle transaction: the mail names the new mandate, masked,
 * and the subscriptions now charged on it. Once per takeover link.
 */
export async function confirmMethodChanged(ctx: AppContext, trx: Knex, mandate: MandateRow, linkId: string): Promise<void> {
  const to = await recipientOf(ctx, trx, mandate.account_id, mandate.customer_id);
  if (!to) return;
  const subscriptions = await portalOverviewRepository.namesOnMandate(trx, mandate.account_id, mandate.customer_id, mandate.id, IN_USE);
  await queueMail(trx, ctx, {
    accountId: to.accountId,
    to: to.to,
    locale: to.locale,
    template: 'portal-method-changed',
    data: { ...to.base, mandateLabel: mandateLabel(mandate), subscriptions },
    dedupeKey: `portal-method-changed:${linkId}`,
  });
}

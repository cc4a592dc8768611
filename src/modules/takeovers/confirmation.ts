import type { Knex } from 'knex';
import type { AppContext } from '../../context';
import { queueMail } from '../../mail/queue';
import { confirmationRecipientOf } from '../customers/confirmationRecipient';
import { mandateLabel } from '../mandates/display';
import type { MandateRow } from '../mandates/repository';
import { subscriptionsRepository } from '../subscriptions/repository';

/** Subscriptions that are or will be charged on a mandate: the ones the mail says now use it. */
const IN_USE = ['draft', 'active', 'paused'] as const;

/**
 * The customer's change of payment method in the portal is done (its takeover link was paid and
 * the new mandate took over), in the transaction of the move: the mail names the new mandate,
 * masked, and the subscriptions now charged on it. Once per takeover link (its dedupe key). One of
 * the portal's confirmation mails (the same template and key), sent by the takeover that does it.
 */
export async function confirmMethodChanged(ctx: AppContext, trx: Knex, mandate: MandateRow, linkId: string): Promise<void> {
  const to = await confirmationRecipientOf(ctx, trx, mandate.account_id, mandate.customer_id);
  if (!to) return;
  const subscriptions = await subscriptionsRepository.namesOnMandate(trx, mandate.account_id, mandate.customer_id, mandate.id, IN_USE);
  await queueMail(trx, ctx, {
    accountId: to.accountId,
    to: to.to,
    locale: to.locale,
    template: 'portal-method-changed',
    data: { ...to.base, mandateLabel: mandateLabel(mandate), subscriptions },
    dedupeKey: `portal-method-changed:${linkId}`,
  });
}

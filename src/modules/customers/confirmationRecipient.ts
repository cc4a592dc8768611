import type { Knex } from 'knex';
import type { AppContext } from '../../context';
import { subscriptionMailer } from '../../events/storeEvents';
import type { PortalActionBase } from '../../mail/templates/portalActions';
import { merchantProfileOf } from '../accounts/profile';
import { customersRepository } from './repository';

/** Who a confirmation of the customer's own change is sent to, and what every such mail says of who sent it. */
export interface ConfirmationRecipient {
  accountId: string;
  to: string;
  locale: string | null;
  base: PortalActionBase;
}

/**
 * The customer, as the recipient of a mail confirming a change they made themselves (the portal's
 * actions, a change of payment method that the takeovers module confirms): here, below both, so that
 * each confirms its own changes. Null when the account left these mails to its store's plugin, which
 * hears of the change by callback (never both), or when the customer has no e-mail address.
 */
export async function confirmationRecipientOf(
  ctx: AppContext,
  trx: Knex,
  accountId: string,
  customerId: string,
): Promise<ConfirmationRecipient | null> {
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

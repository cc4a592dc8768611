import type { AppContext } from '../../context';
import type { PageLocale } from '../../i18n/locales';
import { queueMail } from '../../mail/queue';
import { merchantProfileOf } from '../accounts/profile';
import { customersRepository } from '../customers/repository';
import { createPortalLink, LOGIN_MAIL_LINK_MINUTES } from './links';

/** One address is rarely a customer of more shops than this; beyond it nothing more is sent. */
const MAX_CUSTOMERS_PER_ADDRESS = 20;

/**
 * The log-in by e-mail: every customer with this address, in every account, gets a mail of that
 * account (its display name and contact) with a single-use link to its own portal. An address that
 * is no customer gets nothing, and the caller answers the same either way. Answers how many mails
 * were queued, for the log (never the address).
 */
export async function sendPortalLoginLinks(ctx: AppContext, email: string, pageLocale: PageLocale): Promise<number> {
  const customers = await customersRepository.withEmailInAnyAccount(ctx.db, email, MAX_CUSTOMERS_PER_ADDRESS);
  for (const customer of customers) {
    const merchant = await merchantProfileOf(ctx.db, customer.account_id);
    await createPortalLink(
      ctx,
      { accountId: customer.account_id, customerId: customer.id, purpose: 'login-mail', returnUrl: null, locale: null },
      (trx, url) =>
        queueMail(trx, ctx, {
          accountId: customer.account_id,
          // The address as the merchant stored it, not as typed: the mail goes where the customer is known.
          to: customer.email,
          locale: customer.locale ?? pageLocale,
          template: 'portal-login',
          data: {
            merchantName: merchant.displayName,
            contactEmail: merchant.contactEmail,
            customerName: `${customer.first_name} ${customer.last_name}`.trim() || null,
            url,
            validMinutes: LOGIN_MAIL_LINK_MINUTES,
          },
        }),
    );
  }
  return customers.length;
}

import type { Knex } from 'knex';
import { enqueueAccountEvent } from '../../events/events';
import type { PortalTokenRow } from './tokensRepository';

/** How a portal link came about: the merchant's API call, or the customer's log-in by e-mail. */
export type PortalLinkOrigin = 'api' | 'login_mail';

/**
 * `portal.session_created` to the account's events endpoint, in the transaction that makes the link.
 * The body names the customer by id and how the link was made; never an address or a token.
 */
export function enqueuePortalSessionCreated(
  trx: Knex.Transaction,
  link: Pick<PortalTokenRow, 'id' | 'account_id' | 'customer_id'>,
  via: PortalLinkOrigin,
  now: string,
): Promise<string | null> {
  return enqueueAccountEvent(
    trx,
    link.account_id,
    { name: 'portal.session_created', resourceId: link.id, body: { customer_id: link.customer_id, via } },
    now,
  );
}

import type { Knex } from 'knex';
import type { AppContext } from '../../context';
import { newId } from '../../ids';
import { msAfter, toDbDateTime } from '../../time';
import { enqueuePortalSessionCreated, type PortalLinkOrigin } from './events';
import { hashPortalSecret, newPortalSecret } from './secrets';
import { portalTokensRepository, type PortalTokenPurpose, type PortalTokenRow } from './tokensRepository';

/** A link from the merchant (API) is used at once, by a redirect: an hour is plenty. */
export const SESSION_LINK_MINUTES = 60;
/** A mailed link may be forwarded or sit in an inbox: shorter. */
export const LOGIN_MAIL_LINK_MINUTES = 30;

export interface NewPortalLink {
  row: PortalTokenRow;
  /** `${PUBLIC_URL}/portal/session/<token>`: the only place the token exists in clear. */
  url: string;
}

/**
 * Writes a single-use link that opens a portal session for one customer, with the event that says
 * so, in one transaction. The token is returned once, in the URL, and stored only as its hash.
 */
export async function createPortalLink(
  ctx: AppContext,
  link: { accountId: string; customerId: string; purpose: PortalTokenPurpose; returnUrl: string | null; locale: string | null },
  /** What else belongs to the link's transaction (the mail that carries it). */
  alongside?: (trx: Knex.Transaction, url: string) => Promise<unknown>,
): Promise<NewPortalLink> {
  const secret = newPortalSecret();
  const now = ctx.clock.now();
  const minutes = link.purpose === 'session-link' ? SESSION_LINK_MINUTES : LOGIN_MAIL_LINK_MINUTES;
  const row: PortalTokenRow = {
    id: newId('ptk'),
    account_id: link.accountId,
    customer_id: link.customerId,
    token_hash: hashPortalSecret(secret),
    purpose: link.purpose,
    return_url: link.returnUrl,
    locale: link.locale,
    expires_at: toDbDateTime(msAfter(now, minutes * 60_000)),
    used_at: null,
    created_at: toDbDateTime(now),
  };
  const via: PortalLinkOrigin = link.purpose === 'session-link' ? 'api' : 'login_mail';
  const url = `${ctx.config.publicUrl}/portal/session/${secret}`;
  await ctx.db.transaction(async (trx) => {
    await portalTokensRepository.insert(trx, row);
    await enqueuePortalSessionCreated(trx, row, via, row.created_at);
    if (alongside) await alongside(trx, url);
  });
  return { row, url };
}

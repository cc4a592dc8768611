import type { AppContext } from '../../context';
import type { Account } from '../accounts/account';
import { newId } from '../../ids';
import { fromDbDateTime, msAfter, msBefore, toDbDateTime } from '../../time';
import { accountsRepository } from '../accounts/repository';
import { customersRepository } from '../customers/repository';
import { hashPortalSecret, looksLikePortalSecret, newPortalSecret } from './secrets';
import { portalSessionsRepository, type PortalSessionRow } from './sessionsRepository';
import { portalTokensRepository, type PortalTokenRow } from './tokensRepository';

/** A session ends after this long without a request (recorded to the minute)… */
export const SESSION_IDLE_MINUTES = 30;
/** …and after this long whatever the activity. */
export const SESSION_MAX_HOURS = 8;
/** Activity is written at most this often per session: one write a minute, not one per page. */
const TOUCH_EVERY_MS = 60_000;

/** Why a link opens nothing: never seen, already used, or past its time. */
export type LinkProblem = 'unknown' | 'used' | 'expired';

/** The link behind a token, or why it cannot be used; nothing is claimed. */
export async function inspectPortalLink(
  ctx: AppContext,
  token: string,
): Promise<{ link: PortalTokenRow } | { problem: LinkProblem; link?: PortalTokenRow }> {
  if (!looksLikePortalSecret(token)) return { problem: 'unknown' };
  const link = await portalTokensRepository.findByHash(ctx.db, hashPortalSecret(token));
  if (!link) return { problem: 'unknown' };
  if (link.used_at !== null) return { problem: 'used', link };
  if (link.expires_at <= toDbDateTime(ctx.clock.now())) return { problem: 'expired', link };
  return { link };
}

export interface OpenedSession {
  session: PortalSessionRow;
  /** The cookie's value: the only place the session's secret exists in clear. */
  secret: string;
}

/**
 * Uses a link once: the conditional UPDATE claims it (of two uses at once, one wins) and the session
 * it opens is written in the same transaction, so a claimed link always has its session.
 */
export async function openPortalSession(
  ctx: AppContext,
  token: string,
): Promise<OpenedSession | { problem: LinkProblem; link?: PortalTokenRow }> {
  const inspected = await inspectPortalLink(ctx, token);
  if ('problem' in inspected) return inspected;
  const { link } = inspected;
  const now = ctx.clock.now();
  const stamp = toDbDateTime(now);
  const secret = newPortalSecret();
  const session: PortalSessionRow = {
    id: newId('pss'),
    account_id: link.account_id,
    customer_id: link.customer_id,
    token_hash: hashPortalSecret(secret),
    opened_by_token_id: link.id,
    return_url: link.return_url,
    locale: link.locale,
    last_seen_at: stamp,
    expires_at: toDbDateTime(msAfter(now, SESSION_MAX_HOURS * 3_600_000)),
    ended_at: null,
    created_at: stamp,
  };
  const opened = await ctx.db.transaction(async (trx) => {
    if ((await portalTokensRepository.claim(trx, link.id, stamp)) !== 1) return false;
    await portalSessionsRepository.insert(trx, session);
    return true;
  });
  if (!opened) return { problem: 'used', link };
  return { session, secret };
}

export interface ActiveSession {
  session: PortalSessionRow;
  account: Account;
  /** The customer's own locale, for pages when the session was opened without one. */
  customerLocale: string | null;
}

/**
 * The live session behind a cookie, or why there is none: `none` (no such session: never was, or a
 * forged cookie) or `ended` (logged out, idle for 30 minutes, or past its end). Records activity.
 */
export async function findActiveSession(ctx: AppContext, secret: string): Promise<ActiveSession | 'none' | 'ended'> {
  if (!looksLikePortalSecret(secret)) return 'none';
  const session = await portalSessionsRepository.findByHash(ctx.db, hashPortalSecret(secret));
  if (!session) return 'none';
  const now = ctx.clock.now();
  const idleSince = fromDbDateTime(session.last_seen_at).getTime();
  if (session.ended_at !== null || session.expires_at <= toDbDateTime(now) || now.getTime() - idleSince >= SESSION_IDLE_MINUTES * 60_000) {
    return 'ended';
  }
  const [account, customer] = await Promise.all([
    accountsRepository.findById(ctx.db, session.account_id),
    customersRepository.find(ctx.db, session.account_id, session.customer_id),
  ]);
  if (!account || !customer) return 'none';
  if (now.getTime() - idleSince >= TOUCH_EVERY_MS) {
    await portalSessionsRepository.touch(ctx.db, session.id, toDbDateTime(now), toDbDateTime(msBefore(now, TOUCH_EVERY_MS)));
  }
  return {
    session,
    account: { id: account.id, name: account.name, bookkeeping_system: account.bookkeeping_system, public_ref: account.public_ref },
    customerLocale: customer.locale,
  };
}

/** Log-out (or a new session replacing it in the same browser): the cookie's secret stops working. */
export async function endPortalSession(ctx: AppContext, sessionId: string): Promise<void> {
  await portalSessionsRepository.end(ctx.db, sessionId, toDbDateTime(ctx.clock.now()));
}

/** Ends the session behind a cookie, if there is one (a new link opened in a browser that had one). */
export async function endPortalSessionBySecret(ctx: AppContext, secret: string): Promise<void> {
  if (!looksLikePortalSecret(secret)) return;
  const session = await portalSessionsRepository.findByHash(ctx.db, hashPortalSecret(secret));
  if (session) await endPortalSession(ctx, session.id);
}

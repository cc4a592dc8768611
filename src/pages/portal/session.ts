import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { AppContext } from '../../context';
import { chooseLocale } from '../../i18n/locales';
import { findActiveSession } from '../../modules/portal/sessions';
import { csrfTokenOf, sameSecret } from '../../modules/portal/secrets';
import { setVisitor, type PortalVisitor } from './visitor';

export const SESSION_COOKIE = 'portal_session';

/** The session cookie's value, when the browser sent one. */
export function sessionCookieOf(req: Request): string | null {
  for (const part of (req.get('cookie') ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === SESSION_COOKIE) return value.join('=') || null;
  }
  return null;
}

/**
 * Only our portal pages get the cookie (Path), no script can read it (HttpOnly), another site's
 * forms and frames do not carry it (SameSite=Lax: links do, so a shop's link still works), and in
 * production only over https (Secure). No Max-Age: the server ends the session (30 minutes idle).
 */
const cookieOptions = (ctx: AppContext) =>
  ({ httpOnly: true, sameSite: 'lax', path: '/portal', secure: ctx.config.NODE_ENV === 'production' }) as const;

export function setSessionCookie(ctx: AppContext, res: Response, secret: string): void {
  res.cookie(SESSION_COOKIE, secret, cookieOptions(ctx));
}

export function clearSessionCookie(ctx: AppContext, res: Response): void {
  res.clearCookie(SESSION_COOKIE, cookieOptions(ctx));
}

/**
 * Finds the visitor behind the cookie and sets it for the routes after (visitorOf). `none`: no
 * cookie or no such session; `ended`: the cookie's session ended (its cookie is cleared).
 */
export async function loadVisitor(ctx: AppContext, req: Request, res: Response): Promise<PortalVisitor | 'none' | 'ended'> {
  const secret = sessionCookieOf(req);
  if (!secret) return 'none';
  const found = await findActiveSession(ctx, secret);
  if (found === 'none' || found === 'ended') {
    clearSessionCookie(ctx, res);
    return 'ended';
  }
  const visitor: PortalVisitor = {
    sessionId: found.session.id,
    account: found.account,
    customerId: found.session.customer_id,
    locale: chooseLocale(found.session.locale ?? found.customerLocale, req.get('accept-language')),
    csrfToken: csrfTokenOf(ctx.config.appKey, secret),
    returnUrl: found.session.return_url,
  };
  setVisitor(res, visitor);
  return visitor;
}

const hasVisitor = (res: Response) => res.locals.portalVisitor !== undefined;

/** Every portal route after this one has a visitor; without a live session the browser goes to the log-in page. */
export function requirePortalSession(ctx: AppContext): RequestHandler {
  return async (req: Request, res: Response, next: NextFunction) => {
    if (hasVisitor(res)) return next();
    const found = await loadVisitor(ctx, req, res);
    if (found === 'none') res.redirect(303, '/portal');
    else if (found === 'ended') res.redirect(303, '/portal?session=ended');
    else next();
  };
}

const refuse = (res: Response) => res.status(403).type('text/plain').send('Forbidden');

/**
 * Every POST of a session must come from a form of ours: it carries the session's `_csrf` (compared
 * in constant time) and is not sent from another site (the browser says so in Sec-Fetch-Site);
 * otherwise 403 and nothing happens. Needs the form parsed (urlencoded) and the visitor set.
 */
export function requireCsrfToken(): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== 'POST') return next();
    if (req.get('sec-fetch-site') === 'cross-site') return refuse(res);
    const visitor = res.locals.portalVisitor as PortalVisitor | undefined;
    const given: unknown = (req.body as Record<string, unknown> | undefined)?._csrf;
    if (!visitor || !sameSecret(visitor.csrfToken, given)) return refuse(res);
    next();
  };
}

import express, { type Request, type Response, type Router } from 'express';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { localeFromAcceptLanguage, pageLocaleOf, type PageLocale } from '../../i18n/locales';
import { LOGIN_MAIL_LINK_MINUTES } from '../../modules/portal/links';
import { sendPortalLoginLinks } from '../../modules/portal/login';
import {
  endPortalSession,
  endPortalSessionBySecret,
  inspectPortalLink,
  openPortalSession,
  type LinkProblem,
} from '../../modules/portal/sessions';
import { providerAdapters } from '../../providers';
import { pageSecurityHeaders } from '../securityHeaders';
import { portalAccountRouter } from './accountRoutes';
import { loginLimitReached } from './loginLimits';
import { PORTAL_LOGIN_STRINGS } from './loginStrings';
import { arrivesFromAnotherSite } from './crossSite';
import { confirmPage, linkProblemPage, loginPage, sentPage } from './loginView';
import { PORTAL_CSS } from './portal.css';
import { clearSessionCookie, loadVisitor, requireCsrfToken, requirePortalSession, sessionCookieOf, setSessionCookie } from './session';
import { visitorOf } from './visitor';

const loginForm = z.object({ email: z.string().trim().max(191).pipe(z.email()) });

/**
 * The self-service portal, `/portal/…`. In this order:
 *
 * 1. public: the style sheet; `GET /portal` (the log-in by e-mail, or the overview when a session is
 *    live) and `POST /portal` (send log-in links); `/portal/session/:token` (a single-use link opens
 *    a session: the cookie, then 303 to `/portal/`);
 * 2. `requirePortalSession`: from here on every route has `visitorOf(res)` (no live session: 303 to
 *    `/portal`);
 * 3. every POST from here on is form-parsed and must carry the session's `_csrf` and not come from
 *    another site (`requireCsrfToken`, 403 otherwise): routes after it need no check of their own,
 *    and their forms put `<input type="hidden" name="_csrf" value="${visitor.csrfToken}">`;
 * 4. `POST /portal/logout`, then the customer's pages (accountRoutes.ts).
 */
export function portalPagesRouter(ctx: AppContext): Router {
  const router = express.Router();
  // Forms go to us, and on to the providers' hosted checkouts (changing the payment method).
  const checkoutOrigins = providerAdapters().flatMap((adapter) => adapter.checkoutOrigins(ctx.config));
  router.use(pageSecurityHeaders([...new Set([new URL(ctx.config.publicUrl).origin, ...checkoutOrigins])]));

  router.get('/assets/portal.css', (_req, res) => {
    res.set('Cache-Control', 'public, max-age=86400').type('text/css').send(PORTAL_CSS);
  });

  const browserLocale = (req: Request): PageLocale => localeFromAcceptLanguage(req.get('accept-language'));
  const html = (res: Response, status: number, page: string) => res.status(status).type('html').send(page);
  const form = express.urlencoded({ extended: false, limit: '10kb' });
  // Another site's page must not log a browser in or send mails in its name.
  const ourOrigin = new URL(ctx.config.publicUrl).origin;
  const crossSite = (req: Request) => arrivesFromAnotherSite(req, ourOrigin);

  // `/portal` and `/portal/` are one route: the overview with a live session, else the log-in page.
  router.get('/', async (req, res, next) => {
    const found = await loadVisitor(ctx, req, res);
    if (found !== 'none' && found !== 'ended') return next();
    const locale = browserLocale(req);
    const words = PORTAL_LOGIN_STRINGS[locale];
    const ended = found === 'ended' || req.query.session === 'ended';
    const notice = ended ? words.sessionEnded : req.query.logged_out === '1' ? words.loggedOut : undefined;
    html(res, 200, loginPage(locale, { notice }));
  });

  // The same answer, whether or not the address is a customer's, and whether or not a limit was hit.
  // The mails are written after the answer, so its timing does not tell either.
  router.post('/', form, async (req, res) => {
    if (crossSite(req)) return html(res, 403, loginPage(browserLocale(req)));
    const locale = browserLocale(req);
    const parsed = loginForm.safeParse(req.body ?? {});
    if (!parsed.success) {
      const typed = typeof req.body?.email === 'string' ? String(req.body.email).slice(0, 191) : '';
      return html(res, 422, loginPage(locale, { email: typed, error: PORTAL_LOGIN_STRINGS[locale].login.invalidEmail }));
    }
    const { email } = parsed.data;
    // `req.ip` is the client's address behind the proxies TRUST_PROXY names, else the connection's.
    const limit = await loginLimitReached(ctx, email, req.ip ?? 'unknown');
    if (limit === null) {
      ctx.background.run('portal log-in mails', async () => {
        try {
          const sent = await sendPortalLoginLinks(ctx, email, locale);
          ctx.logger.info('portal log-in requested', { customers: sent });
        } catch (error) {
          // Never the error's message: a database error may quote the address.
          ctx.logger.error('portal log-in mails failed', { code: (error as { code?: unknown }).code ?? 'unknown' });
        }
      });
    } else {
      // An address's turn is the normal answer to a repeated request; the other two are worth a warning.
      const log = limit === 'address' ? ctx.logger.info.bind(ctx.logger) : ctx.logger.warn.bind(ctx.logger);
      log('portal log-in over its rate limit; nothing sent', { limit });
    }
    html(res, 200, sentPage(locale, LOGIN_MAIL_LINK_MINUTES));
  });

  const linkProblem = (req: Request, res: Response, problem: LinkProblem, locale: string | null) => {
    const pageLocale = pageLocaleOf(locale) ?? browserLocale(req);
    if (problem === 'unknown') html(res, 404, linkProblemPage(pageLocale, 'unknown'));
    else html(res, 410, linkProblemPage(pageLocale, 'gone'));
  };

  /** Uses the link: a session, its cookie (replacing this browser's earlier one), and on to the overview. */
  const openSession = async (req: Request, res: Response) => {
    const token = String(req.params.token);
    const opened = await openPortalSession(ctx, token);
    if ('problem' in opened) return linkProblem(req, res, opened.problem, opened.link?.locale ?? null);
    const earlier = sessionCookieOf(req);
    if (earlier) await endPortalSessionBySecret(ctx, earlier);
    setSessionCookie(ctx, res, opened.secret);
    res.redirect(303, '/portal/');
  };

  // A mailed link shows a button first: mail scanners open links in mails, and would otherwise use
  // them up before the customer can. A merchant's link (API) opens the session at once when opened
  // directly or from our own site; arriving from another site it shows the button too: another
  // site could otherwise log a visitor's browser into a portal of its choosing (a link it made for
  // a customer of its own), and the visitor would act in it, giving their payment method to it.
  router.get('/session/:token', async (req, res) => {
    const inspected = await inspectPortalLink(ctx, String(req.params.token));
    if ('problem' in inspected) return linkProblem(req, res, inspected.problem, inspected.link?.locale ?? null);
    // HEAD (link previews, checks) is answered like GET by express: it must not use the link either.
    if (inspected.link.purpose === 'login-mail' || req.method === 'HEAD' || crossSite(req)) {
      const locale = pageLocaleOf(inspected.link.locale) ?? browserLocale(req);
      return html(res, 200, confirmPage(locale, String(req.params.token)));
    }
    await openSession(req, res);
  });

  router.post('/session/:token', async (req, res) => {
    if (crossSite(req)) return html(res, 403, linkProblemPage(browserLocale(req), 'unknown'));
    await openSession(req, res);
  });

  router.use(requirePortalSession(ctx));
  router.use(form, requireCsrfToken());

  router.post('/logout', async (_req, res) => {
    await endPortalSession(ctx, visitorOf(res).sessionId);
    clearSessionCookie(ctx, res);
    res.redirect(303, '/portal?logged_out=1');
  });

  router.use(portalAccountRouter(ctx));
  return router;
}

import express, { type Request, type Response, type Router } from 'express';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { AppError } from '../../errors';
import { chooseLocale, type PageLocale } from '../../i18n/locales';
import {
  findPublicLink,
  linkReturnOutcome,
  LinkNotPayableError,
  payLink,
  paymentInProgress,
  unpayableReason,
  type PublicLink,
} from '../../modules/links/checkout';
import { providerAdapters } from '../../providers';
import { calendarDateIn } from '../../time';
import { pageSecurityHeaders } from '../securityHeaders';
import { PAY_CSS } from './pay.css';
import { PAY_STRINGS } from './strings';
import { failedPage, gonePage, inProgressPage, linkPage, messagePage, type BuyerForm } from './view';

/** How long the return page re-checks for the webhook before it says "we are still waiting": about 30 s. */
const RETURN_CHECKS = 15;
const RETURN_CHECK_SECONDS = 2;
/** How often the page of a payment in progress looks again; a bank transfer can take days, so not often. */
const IN_PROGRESS_CHECK_SECONDS = 15;

const buyerFields = z.object({
  first_name: z.string().trim().max(191).default(''),
  last_name: z.string().trim().max(191).default(''),
  email: z.string().trim().max(191).default(''),
});

/** The buyer's name and e-mail from the form, with a message per empty or invalid field. */
function readBuyer(body: unknown, locale: PageLocale): BuyerForm {
  const parsed = buyerFields.safeParse(body ?? {});
  const values = parsed.success ? parsed.data : { first_name: '', last_name: '', email: '' };
  const words = PAY_STRINGS[locale];
  const errors: BuyerForm['errors'] = {};
  if (!values.first_name) errors.first_name = words.required;
  if (!values.last_name) errors.last_name = words.required;
  if (!values.email) errors.email = words.required;
  else if (!z.email().safeParse(values.email).success) errors.email = words.invalidEmail;
  return { values, errors };
}

/**
 * The hosted pages of payment links: `/pay/:id` shows what is paid now and later and takes the
 * buyer to the checkout; `/pay/:id/return` is where the checkout sends them back to.
 */
export function payPagesRouter(ctx: AppContext): Router {
  const router = express.Router();
  // Forms go to us, and on to the providers' hosted checkouts.
  const checkoutOrigins = providerAdapters().flatMap((adapter) => adapter.checkoutOrigins(ctx.config));
  router.use(pageSecurityHeaders([...new Set([new URL(ctx.config.publicUrl).origin, ...checkoutOrigins])]));

  router.get('/assets/pay.css', (_req, res) => {
    res.set('Cache-Control', 'public, max-age=86400').type('text/css').send(PAY_CSS);
  });

  const localeFor = (req: Request, found: PublicLink | null) => chooseLocale(found?.customer?.locale, req.get('accept-language'));
  const today = () => calendarDateIn(ctx.clock.now(), ctx.config.APP_TIMEZONE);
  const html = (res: Response, status: number, page: string) => res.status(status).type('html').send(page);

  /** The payment under way, its page re-checked by loading the link's page again (without any script). */
  function inProgress(res: Response, locale: PageLocale, found: PublicLink): void {
    res.set('Refresh', `${IN_PROGRESS_CHECK_SECONDS}; url=/pay/${found.link.id}`);
    html(res, 200, inProgressPage(locale, found));
  }

  /** The link, or the answer already sent: 404 for an unknown id. */
  async function linkOr404(req: Request, res: Response): Promise<PublicLink | null> {
    const found = await findPublicLink(ctx, String(req.params.id));
    if (!found) html(res, 404, messagePage(localeFor(req, null), PAY_STRINGS[localeFor(req, null)].notFound));
    return found;
  }

  router.get('/:id', async (req, res) => {
    const found = await linkOr404(req, res);
    if (!found) return;
    const locale = localeFor(req, found);
    const reason = unpayableReason(ctx, found.link);
    if (reason) html(res, 410, gonePage(locale, reason));
    else if (await paymentInProgress(ctx, found.link)) inProgress(res, locale, found);
    else html(res, 200, linkPage(locale, found, today()));
  });

  router.post('/:id', express.urlencoded({ extended: false, limit: '10kb' }), async (req, res) => {
    // A form on another site must not make payments in a buyer's name (browsers say so in this header).
    if (req.get('sec-fetch-site') === 'cross-site') {
      res.status(403).type('text/plain').send('Forbidden');
      return;
    }
    const found = await linkOr404(req, res);
    if (!found) return;
    const locale = localeFor(req, found);
    const form = found.customer ? null : readBuyer(req.body, locale);
    if (form && Object.keys(form.errors).length) {
      html(res, 422, linkPage(locale, found, today(), form));
      return;
    }
    try {
      const outcome = await payLink(ctx, found, form ? form.values : null, locale);
      if ('inProgress' in outcome) inProgress(res, locale, found);
      else res.redirect(303, outcome.checkoutUrl);
    } catch (error) {
      if (error instanceof LinkNotPayableError) {
        html(res, 410, gonePage(locale, error.reason));
        return;
      }
      // The provider refused, is down or is not configured: nothing is lost (a payment row that
      // may exist at the provider is kept and resumed on the next press), the buyer may try again.
      if (error instanceof AppError) {
        ctx.logger.warn('payment link could not start a payment', { link: found.link.id, code: error.code });
        html(res, error.status === 503 ? 503 : 502, messagePage(locale, PAY_STRINGS[locale].providerDown));
        return;
      }
      throw error;
    }
  });

  router.get('/:id/return', async (req, res) => {
    const found = await linkOr404(req, res);
    if (!found) return;
    const locale = localeFor(req, found);
    const { link } = found;
    const outcome = await linkReturnOutcome(ctx, link);
    if (outcome === 'paid') {
      res.redirect(303, link.redirect_url_paid ?? `/pay/${link.id}/thanks`);
      return;
    }
    if (outcome === 'failed') {
      res.redirect(303, link.redirect_url_failed ?? `/pay/${link.id}/failed`);
      return;
    }
    // The webhook has not arrived yet: check again shortly, without any script, for a while.
    const check = Math.max(0, Math.min(RETURN_CHECKS, Number.parseInt(String(req.query.check ?? '0'), 10) || 0));
    if (check >= RETURN_CHECKS) {
      html(res, 200, messagePage(locale, PAY_STRINGS[locale].waitingOver));
      return;
    }
    res.set('Refresh', `${RETURN_CHECK_SECONDS}; url=/pay/${link.id}/return?check=${check + 1}`);
    html(res, 200, messagePage(locale, PAY_STRINGS[locale].waiting));
  });

  router.get('/:id/thanks', async (req, res) => {
    const found = await linkOr404(req, res);
    if (!found) return;
    html(res, 200, messagePage(localeFor(req, found), PAY_STRINGS[localeFor(req, found)].thanks));
  });

  router.get('/:id/failed', async (req, res) => {
    const found = await linkOr404(req, res);
    if (!found) return;
    const payable = unpayableReason(ctx, found.link) === null;
    html(res, 200, failedPage(localeFor(req, found), payable ? found : null));
  });

  return router;
}

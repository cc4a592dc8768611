import express, { type Router } from 'express';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { TAKEOVER_FIRST_AMOUNT } from '../../modules/takeovers/service';
import {
  cancelFromPortal,
  changeMethodFromPortal,
  pauseFromPortal,
  pauseWindow,
  PauseDateError,
  resumeFromPortal,
  skipFromPortal,
} from '../../modules/portal/actions';
import {
  actionSubjectOf,
  HISTORY_LENGTH,
  methodChangeSubjectsOf,
  portalCreditNotePdf,
  portalOverviewOf,
} from '../../modules/portal/overview';
import { portalPage, sendHtml } from './pageHandler';
import { invoicesRepository } from '../../modules/invoices/repository';
import { invoicePdfOf } from '../../modules/invoices/pdf';
import { NotFoundError } from '../../errors';
import { PORTAL_STRINGS, type PortalNotice } from './strings';
import { cancelPage, changeMethodPage, overviewPage, pausePage, resumePage, skipPage } from './view';

const NOTICES = ['cancelled', 'paused', 'resumed', 'skipped', 'method'] as const satisfies readonly PortalNotice[];
const overviewQuery = z.object({ done: z.enum(NOTICES).optional().catch(undefined) });
const methodQuery = z.object({ subscription: z.string().max(64).optional().catch(undefined) });
const cancelForm = z.object({ reason: z.string().max(2000).optional().catch(undefined) });
const pauseForm = z.object({ until: z.string().trim().max(32).catch('') });
const skipForm = z.object({ date: z.string().max(32).catch('') });
const methodForm = z.object({ subscription: z.string().max(64).catch('all') });

/**
 * The signed-in customer's pages, mounted by routes.ts after the session middleware (which also
 * parses forms and checks every POST's `_csrf`): `/` the overview; per subscription a GET page
 * that confirms an action and the POST that does it, then back to the overview with a notice.
 * Paths are relative to `/portal`.
 */
export function portalAccountRouter(ctx: AppContext): Router {
  const router = express.Router();
  const done = (notice: PortalNotice) => `/portal/?done=${notice}`;

  router.get(
    '/',
    portalPage(ctx, async (req, res, page, who) => {
      const overview = await portalOverviewOf(ctx, who, page.frame.settings);
      const notice = overviewQuery.parse(req.query).done ?? null;
      sendHtml(res, 200, overviewPage(page, overview, notice, HISTORY_LENGTH));
    }),
  );

  // The customer's own invoice as a PDF (404 for another customer's).
  router.get(
    '/invoices/:id/pdf',
    portalPage(ctx, async (req, res, _page, who) => {
      const invoice = await invoicesRepository.find(ctx.db, who.account.id, String(req.params.id));
      if (!invoice || invoice.customer_id !== who.customerId) throw new NotFoundError('Invoice');
      const { number, pdf } = await invoicePdfOf(ctx.db, who.account.id, invoice.id);
      res
        .status(200)
        .type('application/pdf')
        .setHeader('Content-Disposition', `inline; filename="${number.replace(/[^\w.-]/g, '_')}.pdf"`);
      res.send(pdf);
    }),
  );

  // The customer's own credit note as a PDF (404 for another customer's), like an invoice.
  router.get(
    '/credit-notes/:id/pdf',
    portalPage(ctx, async (req, res, _page, who) => {
      const { number, pdf } = await portalCreditNotePdf(ctx, who, String(req.params.id));
      res
        .status(200)
        .type('application/pdf')
        .setHeader('Content-Disposition', `inline; filename="${number.replace(/[^\w.-]/g, '_')}.pdf"`);
      res.send(pdf);
    }),
  );

  router.get(
    '/subscriptions/:id/cancel',
    portalPage(ctx, async (req, res, page, who) => {
      sendHtml(res, 200, cancelPage(page, await actionSubjectOf(ctx, who, String(req.params.id), 'cancel')));
    }),
  );

  router.post(
    '/subscriptions/:id/cancel',
    portalPage(ctx, async (req, res, _page, who) => {
      await cancelFromPortal(ctx, who, String(req.params.id), cancelForm.parse(req.body ?? {}).reason ?? null);
      res.redirect(303, done('cancelled'));
    }),
  );

  router.get(
    '/subscriptions/:id/pause',
    portalPage(ctx, async (req, res, page, who) => {
      const subject = await actionSubjectOf(ctx, who, String(req.params.id), 'pause');
      const window = pauseWindow(page.frame.today, page.frame.settings);
      sendHtml(res, 200, pausePage(page, subject, { until: '', problem: null, ...window }));
    }),
  );

  router.post(
    '/subscriptions/:id/pause',
    portalPage(ctx, async (req, res, page, who) => {
      const { until } = pauseForm.parse(req.body ?? {});
      try {
        await pauseFromPortal(ctx, who, String(req.params.id), until);
        res.redirect(303, done('paused'));
      } catch (error) {
        if (!(error instanceof PauseDateError)) throw error;
        const subject = await actionSubjectOf(ctx, who, String(req.params.id), 'pause');
        const window = pauseWindow(page.frame.today, page.frame.settings);
        sendHtml(res, 422, pausePage(page, subject, { until, problem: error.problem, ...window }));
      }
    }),
  );

  router.get(
    '/subscriptions/:id/resume',
    portalPage(ctx, async (req, res, page, who) => {
      sendHtml(res, 200, resumePage(page, await actionSubjectOf(ctx, who, String(req.params.id), 'resume')));
    }),
  );

  router.post(
    '/subscriptions/:id/resume',
    portalPage(ctx, async (req, res, _page, who) => {
      await resumeFromPortal(ctx, who, String(req.params.id));
      res.redirect(303, done('resumed'));
    }),
  );

  router.get(
    '/subscriptions/:id/skip',
    portalPage(ctx, async (req, res, page, who) => {
      sendHtml(res, 200, skipPage(page, await actionSubjectOf(ctx, who, String(req.params.id), 'skip')));
    }),
  );

  router.post(
    '/subscriptions/:id/skip',
    portalPage(ctx, async (req, res, _page, who) => {
      await skipFromPortal(ctx, who, String(req.params.id), skipForm.parse(req.body ?? {}).date);
      res.redirect(303, done('skipped'));
    }),
  );

  router.get(
    '/payment-method',
    portalPage(ctx, async (req, res, page, who) => {
      const subjects = await methodChangeSubjectsOf(ctx, who);
      const asked = methodQuery.parse(req.query).subscription ?? null;
      const chosen = subjects.some((subject) => subject.id === asked) ? asked : null;
      sendHtml(res, 200, changeMethodPage(page, subjects, chosen, TAKEOVER_FIRST_AMOUNT));
    }),
  );

  // On to the pay page of the takeover link (our origin), which goes on to the provider's checkout.
  router.post(
    '/payment-method',
    portalPage(ctx, async (req, res, page, who) => {
      const { subscription } = methodForm.parse(req.body ?? {});
      const { linkId } = await changeMethodFromPortal(ctx, who, subscription === 'all' ? null : subscription, {
        description: PORTAL_STRINGS[page.locale].changeMethod.linkDescription,
        locale: page.locale,
      });
      res.redirect(303, `/pay/${encodeURIComponent(linkId)}`);
    }),
  );

  return router;
}

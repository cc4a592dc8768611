import type { Request, RequestHandler, Response } from 'express';
import type { AppContext } from '../../context';
import { AppError, NotFoundError } from '../../errors';
import { PortalActionNotAllowedError, type PortalCustomer } from '../../modules/portal/actions';
import { portalFrameOf } from '../../modules/portal/overview';
import { PORTAL_STRINGS } from './strings';
import { portalMessagePage, type PortalPage } from './view';
import { visitorOf } from './visitor';

export type PortalWork = (req: Request, res: Response, page: PortalPage, who: PortalCustomer) => Promise<void>;

export const sendHtml = (res: Response, status: number, body: string) => res.status(status).type('html').send(body);

/**
 * A signed-in page's handler: the visitor's customer and the page's frame (merchant, settings),
 * then the page's own work. What the modules refuse becomes a page in the customer's language:
 * another customer's id 404 (as one that does not exist), an action the merchant does not allow
 * 403, one the subscription cannot do now (paused already, a charge being made) 409.
 */
export function portalPage(ctx: AppContext, work: PortalWork): RequestHandler {
  return async (req, res) => {
    const visitor = visitorOf(res);
    const who: PortalCustomer = { account: visitor.account, customerId: visitor.customerId };
    const page: PortalPage = { locale: visitor.locale, frame: await portalFrameOf(ctx, who), visitor };
    const words = PORTAL_STRINGS[visitor.locale];
    try {
      await work(req, res, page, who);
    } catch (error) {
      if (error instanceof NotFoundError) sendHtml(res, 404, portalMessagePage(page, words.notFound));
      else if (error instanceof PortalActionNotAllowedError) sendHtml(res, 403, portalMessagePage(page, words.notAllowed));
      else if (error instanceof AppError && (error.status === 409 || error.status === 422))
        sendHtml(res, 409, portalMessagePage(page, words.notPossible));
      else throw error;
    }
  };
}

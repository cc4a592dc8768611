import type { Response } from 'express';
import type { Account } from '../../modules/accounts/account';
import type { PageLocale } from '../../i18n/locales';

/**
 * Who is looking at a portal page: one customer of one account, through a session that a single-use
 * link opened. Every portal query is scoped by `account.id` and `customerId` from here, never by an
 * id from the URL or a form alone.
 */
export interface PortalVisitor {
  sessionId: string;
  account: Account;
  customerId: string;
  locale: PageLocale;
  /** Goes into every form as `_csrf`; a POST without the session's own token is refused (403). */
  csrfToken: string;
  /** Where "back to the shop" goes, when the session was opened with one. */
  returnUrl: string | null;
}

/** The visitor the session middleware found; only called on routes mounted after it. */
export function visitorOf(res: Response): PortalVisitor {
  const visitor: unknown = res.locals.portalVisitor;
  if (!visitor) throw new Error('portal route mounted without the portal session middleware');
  return visitor as PortalVisitor;
}

export function setVisitor(res: Response, visitor: PortalVisitor): void {
  res.locals.portalVisitor = visitor;
}

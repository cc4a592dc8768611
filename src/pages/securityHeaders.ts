import type { NextFunction, Request, Response } from 'express';

/**
 * Headers of every hosted page. No script may run at all (the pages need none), styles come only
 * from our own style sheet, nobody may frame a page (clickjacking a pay button), and forms may only
 * go to us — or on to the checkout we redirect them to, which Chromium checks against form-action
 * too. `checkoutOrigins`: where checkouts live (our own address for the sandbox; each provider's, from its adapter).
 */
export function pageSecurityHeaders(checkoutOrigins: readonly string[]) {
  const policy = [
    "default-src 'none'",
    "style-src 'self'",
    "img-src 'self' data:",
    `form-action 'self' ${checkoutOrigins.join(' ')}`,
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; ');
  return (_req: Request, res: Response, next: NextFunction) => {
    res.set({
      'Content-Security-Policy': policy,
      'X-Frame-Options': 'DENY',
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
      'Cache-Control': 'no-store',
    });
    next();
  };
}

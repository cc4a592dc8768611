import type { Request } from 'express';

/**
 * Whether a request was sent from another site's page: `Sec-Fetch-Site: cross-site`, or, from a
 * browser that does not send that header, an `Origin` or `Referer` of another origin than ours.
 * Without any of them (typed in, a bookmark, a client that is no browser) it is not: nothing
 * shows that another site sent it. `Origin: null` (our own pages send no referrer) says nothing.
 */
export function arrivesFromAnotherSite(req: Request, ourOrigin: string): boolean {
  const site = req.get('sec-fetch-site');
  if (site) return site === 'cross-site';
  for (const header of ['origin', 'referer']) {
    const value = req.get(header);
    if (!value || value === 'null') continue;
    if (!URL.canParse(value) || new URL(value).origin !== ourOrigin) return true;
  }
  return false;
}

/**
 * A request's path as the log may hold it: without the query string (a token or an e-mail address
 * may be in it) and without the secret of a portal link (`/portal/session/<token>`), which opens a
 * customer's portal to whoever reads it within the hour.
 */
export const loggablePath = (url: string): string => (url.split('?', 1)[0] ?? '').replace(/(\/session\/)[^/]+/, '$1[token]');

import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * The secrets of the portal: the single-use link tokens and the session cookie. 32 random bytes in
 * base64url (43 characters); only their SHA-256 is stored, and a lookup by hash compares fixed-size
 * digests inside the database index, so no timing of ours depends on how much of a guess was right.
 */
export const newPortalSecret = (): string => randomBytes(32).toString('base64url');

export const hashPortalSecret = (secret: string): string => createHash('sha256').update(secret, 'utf8').digest('hex');

/** Anything else is not looked up at all. */
export const looksLikePortalSecret = (value: string): boolean => /^[A-Za-z0-9_-]{43}$/.test(value);

/**
 * A session's CSRF token: an HMAC of its cookie's secret with the server's key, so it needs no column
 * and cannot be made without the cookie (which scripts of other sites cannot read).
 */
export const csrfTokenOf = (appKey: Buffer, sessionSecret: string): string =>
  createHmac('sha256', appKey).update(`portal-csrf:${sessionSecret}`, 'utf8').digest('base64url');

/** Whether a value from a form is the expected secret (a CSRF token), compared in constant time. */
export function sameSecret(expected: string, given: unknown): boolean {
  if (typeof given !== 'string') return false;
  const want = Buffer.from(expected, 'utf8');
  const offered = Buffer.from(given, 'utf8');
  return offered.length === want.length && timingSafeEqual(offered, want);
}

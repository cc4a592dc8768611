import { createHmac } from 'node:crypto';
import type { AppContext } from '../../context';

const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;

/**
 * How often the log-in page sends links. None of them refuses the customer whose address it is: an
 * outsider asking for that address again and again only makes the address wait `mailEveryMinutes`
 * for its next mail, and the mail already sent works for longer than that (30 minutes).
 *
 * - `perIpPerHour`: requests per client address and clock hour (the client's address behind a proxy
 *   only with TRUST_PROXY), so one client cannot probe or mail many addresses;
 * - `mailEveryMinutes`: at most one mail per customer address within this many minutes, whoever asks;
 * - `allPerMinute`: a ceiling for all clients together, so a flood from many addresses cannot make
 *   the service send mail without end.
 */
export const LOGIN_LIMITS = { perIpPerHour: 20, mailEveryMinutes: 5, allPerMinute: 120 } as const;

/** Which limit held a request back; the label of `rps_portal_login_limited_total`. */
export type LoginLimit = 'ip' | 'global' | 'address';

/** The counter key of the global ceiling, per minute window (`ctx.rateLimits.hit(key, window, 60000)`). */
export const LOGIN_CEILING_KEY = 'portal-login:all';

/**
 * Counts one request and says whether its mail may be sent now (null), or which limit holds it back.
 * Checked in this order, each counting only what passed the one before: one client's flood uses up
 * neither the global ceiling nor an address's turn. The address is keyed by an HMAC with the
 * server's key, so neither memory nor Redis holds it.
 */
export async function loginLimitReached(ctx: AppContext, email: string, ip: string): Promise<LoginLimit | null> {
  const nowMs = ctx.clock.now().getTime();
  const limited = (limit: LoginLimit) => {
    ctx.metrics.portalLoginLimited.inc({ limit });
    return limit;
  };
  if ((await ctx.rateLimits.hit(`portal-login:ip:${ip}`, Math.floor(nowMs / HOUR_MS), HOUR_MS)) > LOGIN_LIMITS.perIpPerHour) {
    return limited('ip');
  }
  if ((await ctx.rateLimits.hit(LOGIN_CEILING_KEY, Math.floor(nowMs / MINUTE_MS), MINUTE_MS)) > LOGIN_LIMITS.allPerMinute) {
    return limited('global');
  }
  const addressKey = createHmac('sha256', ctx.config.appKey).update(`portal-login:${email.toLowerCase()}`).digest('base64url');
  if (!(await ctx.rateLimits.claim(`portal-login:address:${addressKey}`, nowMs, LOGIN_LIMITS.mailEveryMinutes * MINUTE_MS))) {
    return limited('address');
  }
  return null;
}

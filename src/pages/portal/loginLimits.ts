import { createHmac } from 'node:crypto';
import type { AppContext } from '../../context';

const HOUR_MS = 3_600_000;

/**
 * How often the log-in page sends links, per fixed clock hour: per address (a mailbox is not flooded)
 * and per client IP (one client cannot probe or spam many addresses). Counted by `ctx.rateLimits`:
 * in memory, or shared in Redis. The IP is the connection's (`trust proxy` is off): behind a proxy
 * every customer shares the proxy's limit.
 */
export const LOGIN_LIMITS = { perAddressPerHour: 5, perIpPerHour: 20 } as const;

/**
 * Counts one request and says whether it is within both limits. Both are counted every time, and the
 * address is keyed by an HMAC with the server's key, so neither memory nor Redis holds it.
 */
export async function loginWithinLimits(ctx: AppContext, email: string, ip: string): Promise<boolean> {
  const window = Math.floor(ctx.clock.now().getTime() / HOUR_MS);
  const addressKey = createHmac('sha256', ctx.config.appKey).update(`portal-login:${email.toLowerCase()}`).digest('base64url');
  const [byAddress, byIp] = await Promise.all([
    ctx.rateLimits.hit(`portal-login:address:${addressKey}`, window, HOUR_MS),
    ctx.rateLimits.hit(`portal-login:ip:${ip}`, window, HOUR_MS),
  ]);
  return byAddress <= LOGIN_LIMITS.perAddressPerHour && byIp <= LOGIN_LIMITS.perIpPerHour;
}

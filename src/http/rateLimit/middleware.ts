import type { RequestHandler } from 'express';
import type { AppContext } from '../../context';
import { authOf } from '../auth';
import { RateLimitedError } from '../../errors';

/**
 * Per-token fixed one-minute windows, counted by `ctx.rateLimits` (in memory, or in Redis with
 * REDIS_URL so that several instances share one limit).
 */
export function rateLimitPerToken(ctx: AppContext): RequestHandler {
  const limit = ctx.config.RATE_LIMIT_PER_MINUTE;
  const limitHeader = String(limit);
  return async (_req, res, next) => {
    const { tokenId } = authOf(res);
    const nowMs = ctx.clock.now().getTime();
    const window = Math.floor(nowMs / 60_000);
    const hits = await ctx.rateLimits.hit(tokenId, window);
    res.setHeader('X-RateLimit-Limit', limitHeader);
    res.setHeader('X-RateLimit-Remaining', String(Math.max(0, limit - hits)));
    if (hits > limit) {
      const retryAfter = Math.max(1, Math.ceil(((window + 1) * 60_000 - nowMs) / 1000));
      res.setHeader('Retry-After', String(retryAfter));
      throw new RateLimitedError(retryAfter);
    }
    next();
  };
}

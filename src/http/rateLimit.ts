import type { RequestHandler } from 'express';
import type { AppContext } from '../context';
import { authOf } from './auth';
import { RateLimitedError } from './errors';

/**
 * Per-token fixed one-minute windows, counted in the database so that several instances behind a
 * load balancer share one limit.
 */
export function rateLimitPerToken(ctx: AppContext): RequestHandler {
  const limit = ctx.config.RATE_LIMIT_PER_MINUTE;
  return async (_req, res, next) => {
    const { tokenId } = authOf(res);
    const nowMs = ctx.clock.now().getTime();
    const windowStart = Math.floor(nowMs / 60_000);
    await ctx.db('rate_limit_windows')
      .insert({ token_id: tokenId, window_start: windowStart, hits: 1 })
      .onConflict(['token_id', 'window_start'])
      .merge({ hits: ctx.db.raw('?? + 1', ['rate_limit_windows.hits']) });
    const row = await ctx.db('rate_limit_windows')
      .where({ token_id: tokenId, window_start: windowStart })
      .first<{ hits: number | string }>('hits');
    const hits = Number(row?.hits ?? 1);
    if (hits === 1) {
      // First request of a new window: old windows of this token are no longer needed.
      await ctx.db('rate_limit_windows').where('token_id', tokenId).andWhere('window_start', '<', windowStart).delete();
    }
    const retryAfter = Math.max(1, Math.ceil(((windowStart + 1) * 60_000 - nowMs) / 1000));
    res.setHeader('X-RateLimit-Limit', String(limit));
    res.setHeader('X-RateLimit-Remaining', String(Math.max(0, limit - hits)));
    if (hits > limit) {
      res.setHeader('Retry-After', String(retryAfter));
      throw new RateLimitedError(retryAfter);
    }
    next();
  };
}

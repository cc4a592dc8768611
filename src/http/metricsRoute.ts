import { createHash, timingSafeEqual } from 'node:crypto';
import type { RequestHandler } from 'express';
import type { AppContext } from '../context';

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * `GET /metrics`: Prometheus's text format. With METRICS_TOKEN set, only a request carrying
 * `Authorization: Bearer <METRICS_TOKEN>` is answered (compared in constant time); 401 otherwise.
 */
export function metricsRoute(ctx: AppContext): RequestHandler {
  const expected = ctx.config.METRICS_TOKEN === undefined ? null : digest(ctx.config.METRICS_TOKEN);
  return async (req, res) => {
    if (expected) {
      const given = /^Bearer (.+)$/.exec(req.get('authorization') ?? '')?.[1] ?? '';
      if (!timingSafeEqual(digest(given), expected)) {
        res.status(401).set('WWW-Authenticate', 'Bearer').json({ status: 401, error: 'Unauthenticated.', code: 'unauthenticated' });
        return;
      }
    }
    res.set('Content-Type', ctx.metrics.registry.contentType).send(await ctx.metrics.registry.metrics());
  };
}

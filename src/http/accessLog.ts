import type { RequestHandler } from 'express';
import type { Logger } from '../logger';
import { loggablePath } from './loggablePath';
import { requestIdOf } from './requestId';

/** One JSON line per request with its full path: no headers, bodies or query strings, so no token or personal data. */
export function accessLog(logger: Logger): RequestHandler {
  // The level is fixed at start: below `http` the line would be dropped, so nothing is built for it.
  if (!logger.isLevelEnabled('http')) return (_req, _res, next) => next();
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const auth = res.locals.auth as { account?: { id?: string } } | undefined;
      logger.http('request', {
        requestId: requestIdOf(res.locals),
        method: req.method,
        // req.path inside a mounted router (/pay, /webhooks) lacks the mount point; the original URL
        // has it. The query string and a portal link's token are cut out.
        path: loggablePath(req.originalUrl),
        status: res.statusCode,
        durationMs: Number((process.hrtime.bigint() - started) / 1000n) / 1000,
        accountId: auth?.account?.id,
      });
    });
    next();
  };
}

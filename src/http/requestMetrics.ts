import type { RequestHandler } from 'express';
import type { Metrics } from '../metrics';

/**
 * Times every answer into the request-duration histogram, labelled by the route's pattern
 * (`/api/v2/customers/:id`, never the id itself) so the number of series stays small.
 */
export function requestMetrics(metrics: Metrics): RequestHandler {
  return (req, res, next) => {
    const stop = metrics.httpRequestDuration.startTimer();
    res.once('finish', () => {
      const pattern = req.route?.path;
      const route = typeof pattern === 'string' ? `${req.baseUrl}${pattern}` : 'unmatched';
      stop({ method: req.method, route, status: String(res.statusCode) });
    });
    next();
  };
}

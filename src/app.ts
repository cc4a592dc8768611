import express, { type Express } from 'express';
import type { AppContext } from './context';
import { pingDatabase } from './db/connect';
import { accessLog } from './http/accessLog';
import { requireToken } from './http/auth';
import { parseJsonBody, requireJsonContentType } from './http/bodies';
import { errorHandler, notFoundRoute } from './http/errorHandler';
import { idempotentPosts } from './http/idempotency';
import { metricsRoute } from './http/metricsRoute';
import { buildOpenApiDocument } from './http/openapi';
import { rateLimitPerToken } from './http/rateLimit/middleware';
import { requestId } from './http/requestId';
import { requestMetrics } from './http/requestMetrics';
import { mountRoutes } from './http/route';
import { apiRoutes } from './modules';
import { providerWebhookRouter } from './http/webhooks/providers';
import { storeWebhookRouter } from './http/webhooks/storeRoute';
import { processWebhookCall, recordWebhookCall } from './modules/payments/webhookCalls';
import { payPagesRouter } from './pages/pay/routes';
import { portalPagesRouter } from './pages/portal/routes';
import { sandboxCheckoutRouter } from './providers/sandbox/checkoutPage';

/** Builds the HTTP app without listening, so tests drive it in-process. */
export function createApp(ctx: AppContext): Express {
  const app = express();
  app.disable('x-powered-by');
  // Off unless TRUST_PROXY names the proxies in front: then `req.ip` is the client's address (limits, logs).
  app.set('trust proxy', ctx.config.TRUST_PROXY);
  app.set('query parser', 'simple');

  app.use(requestId, accessLog(ctx.logger), requestMetrics(ctx.metrics));
  app.get('/metrics', metricsRoute(ctx));

  app.get('/healthz', async (_req, res) => {
    try {
      await pingDatabase(ctx.db);
      res.json({ status: 'ok' });
    } catch {
      res.status(503).json({ status: 'unavailable', error: 'The database does not answer' });
    }
  });

  app.use('/webhooks', providerWebhookRouter(ctx));
  app.use('/webhooks', storeWebhookRouter(ctx));
  // The sandbox reports a change the way a provider does: a recorded webhook call, processed the
  // same way; awaited here so the payer's redirect already sees the new status. Where the sandbox is
  // off (production, by default) its pages do not exist: a buyer could otherwise press "paid".
  if (ctx.config.sandboxEnabled) {
    app.use(
      '/sandbox',
      sandboxCheckoutRouter(ctx, async (accountId, providerPaymentId) => {
        await processWebhookCall(ctx, await recordWebhookCall(ctx, 'sandbox', accountId, providerPaymentId));
      }),
    );
  }

  // The hosted pages of payment links: public, HTML, their own security headers.
  app.use('/pay', payPagesRouter(ctx));
  // The customers' self-service portal: a session cookie of its own, CSRF tokens on every form.
  app.use('/portal', portalPagesRouter(ctx));

  const openApiDocument = buildOpenApiDocument(apiRoutes, ctx.config.publicUrl);
  app.get('/api/v2/openapi.json', (_req, res) => {
    res.json(openApiDocument);
  });

  // Everything else under /api/v2 is authenticated, rate limited and JSON; a POST may carry an Idempotency-Key.
  app.use('/api/v2', requireToken(ctx), rateLimitPerToken(ctx), requireJsonContentType, parseJsonBody, idempotentPosts(ctx));
  const api = express.Router();
  mountRoutes(api, ctx, apiRoutes);
  app.use(api);

  app.use(notFoundRoute);
  app.use(errorHandler(ctx.logger));
  return app;
}

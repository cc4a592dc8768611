import express, { type Router } from 'express';
import type { AppContext } from '../../context';
import { receiveStoreDelivery } from '../../modules/store/storeWebhooks';

const STATUS = { ping: 200, applied: 200, duplicate: 200, ignored: 200, unauthorized: 401, unknown: 404 } as const;

/**
 * `POST /webhooks/<platform>/:ref` (`/webhooks/woocommerce/:ref`): a store's deliveries, read as raw
 * bytes so the signature is checked on exactly what was sent. A name no platform has is not ours.
 */
export function storeWebhookRouter(ctx: AppContext): Router {
  const router = express.Router();
  router.post(
    '/:platform/:ref',
    (req, _res, next) => next(ctx.platforms.has(String(req.params.platform)) ? undefined : 'route'),
    express.raw({ type: () => true, limit: '2mb' }),
    async (req, res) => {
      const outcome = await receiveStoreDelivery(ctx, {
        platform: String(req.params.platform),
        publicRef: String(req.params.ref),
        rawBody: Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0),
        headers: req.headers,
      });
      res.status(STATUS[outcome]).json({ status: STATUS[outcome], result: outcome });
    },
  );
  return router;
}

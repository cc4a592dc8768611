import express, { type Router } from 'express';
import type { AppContext } from '../../context';
import { receiveStoreDelivery } from '../../modules/store/storeWebhooks';

const STATUS = { ping: 200, applied: 200, duplicate: 200, ignored: 200, unauthorized: 401, unknown: 404 } as const;

/** `POST /webhooks/woocommerce/:ref`: the store's deliveries, read as raw bytes so the signature is checked on exactly what was sent. */
export function woocommerceWebhookRouter(ctx: AppContext): Router {
  const router = express.Router();
  router.post('/woocommerce/:ref', express.raw({ type: () => true, limit: '2mb' }), async (req, res) => {
    const outcome = await receiveStoreDelivery(ctx, {
      publicRef: String(req.params.ref),
      rawBody: Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0),
      contentType: req.get('content-type') ?? '',
      headers: { signature: req.get('x-wc-webhook-signature'), topic: req.get('x-wc-webhook-topic'), deliveryId: req.get('x-wc-webhook-delivery-id') },
    });
    res.status(STATUS[outcome]).json({ status: STATUS[outcome], result: outcome });
  });
  return router;
}

import express, { type Router } from 'express';
import type { AppContext } from '../../context';
import { accountsRepository } from '../../modules/accounts/repository';
import { processWebhookCall, recordWebhookCall } from './calls';

const PAYMENT_ID = /^tr_[0-9A-Za-z]{1,60}$/;

/**
 * Receives a provider's report that a payment changed: records it and answers 200 at once, then
 * processes it in the background. Unknown accounts and ids also get 200: the provider must not
 * retry them, and nothing is revealed about which ids exist. Mollie's calls are unsigned, which is
 * why the call is never trusted: the payment is fetched from the provider.
 */
export async function receiveProviderWebhook(ctx: AppContext, publicRef: string, resourceId: string): Promise<number | null> {
  if (!PAYMENT_ID.test(resourceId)) return null;
  const account = await accountsRepository.findByPublicRef(ctx.db, publicRef);
  if (!account) {
    ctx.logger.warn('provider webhook for an unknown account reference', { resourceId });
    return null;
  }
  return recordWebhookCall(ctx, account.id, resourceId);
}

export function mollieWebhookRouter(ctx: AppContext): Router {
  const router = express.Router();
  router.post('/mollie', express.urlencoded({ extended: false, limit: '10kb' }), async (req, res) => {
    const publicRef = typeof req.query.account === 'string' ? req.query.account : '';
    const body = req.body as Record<string, unknown> | undefined;
    const resourceId = typeof body?.id === 'string' ? body.id : '';
    const seq = await receiveProviderWebhook(ctx, publicRef, resourceId);
    res.status(200).type('text/plain').send('OK');
    if (seq !== null) ctx.background.run('process provider webhook', () => processWebhookCall(ctx, seq));
  });
  return router;
}

import express, { type Router } from 'express';
import type { LaneOptions } from '../../background';
import type { AppContext } from '../../context';
import { accountsRepository } from '../../modules/accounts/repository';
import { processWebhookCall, recordWebhookCall } from './calls';

const PAYMENT_ID = /^tr_[0-9A-Za-z]{1,60}$/;
/**
 * Calls are processed a few at a time (each waits for the provider), once a burst has been answered:
 * not while calls still arrive, unless one has waited five seconds. Beyond 10,000 waiting, a call is left
 * to the process-webhook-calls job (it is recorded already).
 */
const PROCESSING: LaneOptions & { name: string } = { name: 'provider webhooks', limit: 8, maxWaiting: 10_000, quietMs: 50, maxDeferMs: 5_000 };

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
    // A few at a time: a burst of calls is answered first and processed right after, not in a scrum.
    if (seq !== null) ctx.background.runInLane(PROCESSING, 'process provider webhook', () => processWebhookCall(ctx, seq));
  });
  return router;
}

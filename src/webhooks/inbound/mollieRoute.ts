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

/** Accounts whose references a process remembers; beyond it, the cache starts afresh. */
const MOST_REMEMBERED_ACCOUNTS = 10_000;

/**
 * The account a webhook address names. An account's public reference never changes and accounts
 * are not deleted, so a found one is remembered: a burst of a thousand calls reads it once, not a
 * thousand times while each call waits for a database connection.
 */
function accountLookup(ctx: AppContext): (publicRef: string) => Promise<string | null> {
  // The lookup itself is kept, so the calls arriving while it runs wait for it instead of asking again.
  const remembered = new Map<string, Promise<string | null>>();
  return (publicRef) => {
    const known = remembered.get(publicRef);
    if (known) return known;
    if (remembered.size >= MOST_REMEMBERED_ACCOUNTS) remembered.clear();
    const lookup = accountsRepository.findByPublicRef(ctx.db, publicRef).then((account) => account?.id ?? null);
    remembered.set(publicRef, lookup);
    // Only a found account is remembered: an unknown reference, or a failed read, is asked again next time.
    lookup.then(
      (accountId) => {
        if (accountId === null) remembered.delete(publicRef);
      },
      () => remembered.delete(publicRef),
    );
    return lookup;
  };
}

/**
 * Receives a provider's report that a payment changed: records it and answers 200 at once, then
 * processes it in the background. Unknown accounts and ids also get 200: the provider must not
 * retry them, and nothing is revealed about which ids exist. Mollie's calls are unsigned, which is
 * why the call is never trusted: the payment is fetched from the provider.
 */
async function receiveProviderWebhook(ctx: AppContext, accountIdOf: (publicRef: string) => Promise<string | null>, publicRef: string, resourceId: string): Promise<number | null> {
  if (!PAYMENT_ID.test(resourceId)) return null;
  const accountId = await accountIdOf(publicRef);
  if (!accountId) {
    ctx.logger.warn('provider webhook for an unknown account reference', { resourceId });
    return null;
  }
  return recordWebhookCall(ctx, accountId, resourceId);
}

export function mollieWebhookRouter(ctx: AppContext): Router {
  const router = express.Router();
  const accountIdOf = accountLookup(ctx);
  router.post('/mollie', express.urlencoded({ extended: false, limit: '10kb' }), async (req, res) => {
    const publicRef = typeof req.query.account === 'string' ? req.query.account : '';
    const body = req.body as Record<string, unknown> | undefined;
    const resourceId = typeof body?.id === 'string' ? body.id : '';
    const seq = await receiveProviderWebhook(ctx, accountIdOf, publicRef, resourceId);
    res.status(200).type('text/plain').send('OK');
    // A few at a time: a burst of calls is answered first and processed right after, not in a scrum.
    if (seq !== null) ctx.background.runInLane(PROCESSING, 'process provider webhook', () => processWebhookCall(ctx, seq));
  });
  return router;
}

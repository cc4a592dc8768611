import express, { type RequestHandler, type Router } from 'express';
import type { LaneOptions } from '../../background';
import type { AppContext } from '../../context';
import { accountsRepository } from '../../modules/accounts/repository';
import { processWebhookCall, recordWebhookCall } from '../../modules/payments/webhookCalls';
import { providerAdapters } from '../../providers';
import type { InboundWebhookCall, ProviderWebhook } from '../../providers/adapter';
import { errorMessage } from '../../errors';

/** A provider's report is a few fields: anything larger is not one. */
const BODY_LIMIT = '10kb';
/**
 * Calls are processed a few at a time (each waits for the provider), once a burst has been answered:
 * not while calls still arrive, unless one has waited five seconds. Beyond 10,000 waiting, a call is left
 * to the process-webhook-calls job (it is recorded already).
 */
const PROCESSING: LaneOptions & { name: string } = {
  name: 'provider webhooks',
  limit: 8,
  maxWaiting: 10_000,
  quietMs: 50,
  maxDeferMs: 5_000,
};

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

/** A provider that reports by webhook, by its name. */
interface Receiving {
  name: string;
  webhook: ProviderWebhook;
}

/** What the adapter reads in a call; a call it cannot read at all is not one of the provider's. */
function readCall(ctx: AppContext, adapter: Receiving, call: InboundWebhookCall): { paymentId: string } | null {
  try {
    return adapter.webhook.parse(call);
  } catch (error) {
    ctx.logger.warn('provider webhook call that its adapter cannot read', {
      provider: adapter.name,
      error: errorMessage(error),
    });
    return null;
  }
}

/**
 * `POST /webhooks/<provider>?account=<public_ref>`: a provider's report that a payment changed. Its
 * adapter reads the call; the call is recorded and answered 200 at once, then processed in the
 * background. Calls that are not the provider's, and unknown accounts, also get 200: the provider
 * must not retry them, and nothing is revealed about which ids exist. Calls are never trusted (many
 * providers sign nothing): the payment is fetched from the provider.
 */
export function providerWebhookRouter(ctx: AppContext): Router {
  const router = express.Router();
  const accountIdOf = accountLookup(ctx);
  const bodyParsers = new Map<ProviderWebhook, RequestHandler>();
  const adapterOf = (name: string): Receiving | null => {
    const adapter = providerAdapters().find((known) => known.name === name);
    return adapter?.webhook ? { name: adapter.name, webhook: adapter.webhook } : null;
  };

  router.post(
    '/:provider',
    (req, res, next) => {
      const webhook = adapterOf(String(req.params.provider))?.webhook;
      // Not a provider that reports by webhook: the address does not exist.
      if (!webhook) return next('route');
      let parse = bodyParsers.get(webhook);
      if (!parse) {
        parse = express.raw({ type: [...webhook.contentTypes], limit: BODY_LIMIT });
        bodyParsers.set(webhook, parse);
      }
      return parse(req, res, next);
    },
    async (req, res) => {
      const adapter = adapterOf(String(req.params.provider));
      const publicRef = typeof req.query.account === 'string' ? req.query.account : '';
      const change = adapter ? readCall(ctx, adapter, { body: Buffer.isBuffer(req.body) ? req.body : null, headers: req.headers }) : null;
      let seq: number | null = null;
      if (adapter && change) {
        const accountId = await accountIdOf(publicRef);
        if (accountId) seq = await recordWebhookCall(ctx, adapter.name, accountId, change.paymentId);
        else ctx.logger.warn('provider webhook for an unknown account reference', { provider: adapter.name, resourceId: change.paymentId });
      }
      res.status(200).type('text/plain').send('OK');
      // A few at a time: a burst of calls is answered first and processed right after, not in a scrum.
      if (seq !== null) ctx.background.runInLane(PROCESSING, 'process provider webhook', () => processWebhookCall(ctx, seq));
    },
  );
  return router;
}

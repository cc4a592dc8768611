import type { Knex } from 'knex';
import { newId } from '../ids';
import { insertEvent } from './events';
import { storeCallbackRepository } from './storeCallbackRepository';

/**
 * Subscription changes told to the store's plugin at the callback address it gave when it connected
 * the store, signed as every event (X-Signature with the account's event secret). The plugin reads
 * the subscription from the API; the body carries no personal data. `event_id` is in the signed
 * body (not only in X-Event-Id) so the plugin's dedupe cannot be dodged by changing a header.
 */
export type StoreSubscriptionEvent = 'cancelled' | 'paused' | 'resumed' | 'skipped' | 'method_changed';

/** Who mails the customer about this change: the store's plugin (WooCommerce's mailer) or the service. */
export type SubscriptionMailer = 'store' | 'service';

/**
 * `store` only when the account chose it (`cli accounts set-portal --mails store`) and a plugin can
 * hear of the change (the store is connected with a callback address): otherwise nobody would mail.
 * The service's portal confirmations and the callback's `mail` field both ask this, in the change's
 * transaction, so exactly one of the two mails.
 */
export async function subscriptionMailer(db: Knex, accountId: string): Promise<SubscriptionMailer> {
  if ((await storeCallbackRepository.portalMails(db, accountId)) !== 'store') return 'service';
  return (await storeCallbackRepository.callbackUrl(db, accountId)) ? 'store' : 'service';
}

/**
 * Writes `subscription.<event>` for the store's plugin into the outbox, in the transaction of the
 * change; nothing when the store has no callback address. Answers the event's id.
 */
export async function enqueueStoreSubscriptionEvent(
  trx: Knex.Transaction,
  subscription: { id: string; account_id: string },
  event: StoreSubscriptionEvent,
  now: string,
  extra: Record<string, unknown> = {},
): Promise<string | null> {
  const url = await storeCallbackRepository.callbackUrl(trx, subscription.account_id);
  if (!url) return null;
  const id = newId('evt');
  const name = `subscription.${event}`;
  const mail = await subscriptionMailer(trx, subscription.account_id);
  return insertEvent(
    trx,
    {
      accountId: subscription.account_id,
      paymentId: null,
      resourceId: subscription.id,
      event: name,
      payload: JSON.stringify({ id: subscription.id, event: name, event_id: id, mail, ...extra }),
      url,
    },
    now,
    id,
  );
}

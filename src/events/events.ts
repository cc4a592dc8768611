import type { Knex } from 'knex';
import { newId } from '../ids';
import { accountEventSettingsRepository } from './accountSettingsRepository';
import { outboundEventsRepository } from './repository';

/** The JSON body of an event (docs/events.md): a receiver may also fetch GET /api/v2/payments/{id}. */
export function paymentEventPayload(paymentId: string, status: string): string {
  return JSON.stringify({ id: paymentId, event: `payment.${status}`, status });
}

export interface NewEvent {
  accountId: string;
  paymentId: string | null;
  resourceId: string | null;
  event: string;
  payload: string;
  url: string;
}

/**
 * One row of the outbox; `id` given when the payload names the event itself (the store's callbacks).
 * `claimedUntil`: the caller attempts it right after the commit (deliverEvent's claim, taken here
 * instead of in a write of its own); the job takes it over once that claim runs out.
 */
export async function insertEvent(
  trx: Knex.Transaction,
  event: NewEvent,
  now: string,
  id: string = newId('evt'),
  claimedUntil: string = now,
): Promise<string> {
  await outboundEventsRepository.insert(trx, {
    id,
    account_id: event.accountId,
    payment_id: event.paymentId,
    resource_id: event.resourceId,
    event: event.event,
    payload: event.payload,
    url: event.url,
    status: 'pending',
    attempts: 0,
    next_attempt_at: claimedUntil,
    last_attempt_at: null,
    last_status_code: null,
    last_error: null,
    delivered_at: null,
    created_at: now,
  });
  return id;
}

/** The merchant's account-wide endpoint (`cli accounts set-webhook`), or null when none is set. */
const accountEventsUrl = (trx: Knex.Transaction, accountId: string) => accountEventSettingsRepository.eventsUrl(trx, accountId);

/**
 * Writes a payment's status change into the outbox: to the payment's own webhook_url (unless the
 * change was told in the answer to the client's request) and to the account's events endpoint
 * (always: it hears of payments of every purpose). Called inside the transaction that changes the
 * status, so an event exists exactly when the change does, whatever crashes afterwards.
 */
export async function enqueuePaymentEvents(
  trx: Knex.Transaction,
  payment: { id: string; account_id: string; webhook_url: string | null },
  status: string,
  now: string,
  options: { toPaymentUrl: boolean; claimedUntil?: string },
): Promise<string[]> {
  const base = {
    accountId: payment.account_id,
    paymentId: payment.id,
    resourceId: payment.id,
    event: `payment.${status}`,
    payload: paymentEventPayload(payment.id, status),
  };
  const ids: string[] = [];
  const insert = (url: string) => insertEvent(trx, { ...base, url }, now, newId('evt'), options.claimedUntil ?? now);
  if (options.toPaymentUrl && payment.webhook_url) ids.push(await insert(payment.webhook_url));
  const accountUrl = await accountEventsUrl(trx, payment.account_id);
  if (accountUrl) ids.push(await insert(accountUrl));
  return ids;
}

/**
 * An event about something other than a payment (`subscription.charged`, `follow_up.solved`) to the
 * account's events endpoint, in the caller's transaction. Nothing is written when none is set.
 */
export async function enqueueAccountEvent(
  trx: Knex.Transaction,
  accountId: string,
  event: { name: string; resourceId: string; body: Record<string, unknown> },
  now: string,
): Promise<string | null> {
  const url = await accountEventsUrl(trx, accountId);
  if (!url) return null;
  const payload = JSON.stringify({ id: event.resourceId, event: event.name, ...event.body });
  return insertEvent(trx, { accountId, paymentId: null, resourceId: event.resourceId, event: event.name, payload, url }, now);
}

import type { Knex } from 'knex';
import { enqueueAccountEvent } from '../../events/events';
import type { SubscriptionRow } from './repository';

export type SubscriptionEvent = 'charged' | 'paused' | 'resumed' | 'cancelled' | 'completed' | 'skipped';

/** `subscription.<event>` to the account's events endpoint, in the transaction that made the change. */
export function enqueueSubscriptionEvent(
  trx: Knex.Transaction,
  subscription: Pick<SubscriptionRow, 'id' | 'account_id'>,
  event: SubscriptionEvent,
  now: string,
  extra: Record<string, unknown> = {},
): Promise<string | null> {
  const status = event === 'charged' || event === 'resumed' || event === 'skipped' ? 'active' : event;
  return enqueueAccountEvent(
    trx,
    subscription.account_id,
    { name: `subscription.${event}`, resourceId: subscription.id, body: { status, ...extra } },
    now,
  );
}

/** What a `subscription.updated` event says changed. */
export type SubscriptionChange = 'name' | 'provider_mandate_id' | 'rules' | 'cancel_at';

/**
 * `subscription.updated` (`{id, event, changes}`) in the transaction that made the change: a PATCH,
 * or a new mandate taking over. `changes` names the fields, in the order given.
 */
export function enqueueSubscriptionUpdated(
  trx: Knex.Transaction,
  subscription: { id: string; account_id: string },
  changes: string[],
  now: string,
  extra: Record<string, unknown> = {},
): Promise<string | null> {
  return enqueueAccountEvent(
    trx,
    subscription.account_id,
    { name: 'subscription.updated', resourceId: subscription.id, body: { changes, ...extra } },
    now,
  );
}

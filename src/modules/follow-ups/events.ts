import type { Knex } from 'knex';
import { enqueueAccountEvent } from '../../events/events';
import type { FollowUpRow } from './repository';

/** `follow_up.<event>` to the account's events endpoint, in the transaction that made the change. */
export function enqueueFollowUpEvent(
  trx: Knex.Transaction,
  followUp: Pick<FollowUpRow, 'id' | 'account_id' | 'subscription_id' | 'payment_id'>,
  event: 'created' | 'solved' | 'failed',
  now: string,
): Promise<string | null> {
  const status = event === 'created' ? 'pending' : event;
  return enqueueAccountEvent(
    trx,
    followUp.account_id,
    {
      name: `follow_up.${event}`,
      resourceId: followUp.id,
      body: { status, subscription_id: followUp.subscription_id, payment_id: followUp.payment_id },
    },
    now,
  );
}

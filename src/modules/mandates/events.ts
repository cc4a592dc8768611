import type { Knex } from 'knex';
import { enqueueAccountEvent } from '../../events/events';
import type { MandateRow } from './repository';

export type MandateEvent = 'created' | 'revoked' | 'revocation_skipped';

/**
 * `mandate.<event>` to the account's events endpoint, in the transaction that records the mandate or
 * its revocation (or that it was kept: `extra` says why). The body names the customer and the status,
 * never the account holder or the IBAN.
 */
export function enqueueMandateEvent(
  trx: Knex.Transaction,
  mandate: Pick<MandateRow, 'id' | 'account_id' | 'customer_id' | 'method' | 'status'>,
  event: MandateEvent,
  now: string,
  extra: Record<string, unknown> = {},
): Promise<string | null> {
  return enqueueAccountEvent(
    trx,
    mandate.account_id,
    {
      name: `mandate.${event}`,
      resourceId: mandate.id,
      body: {
        customer_id: mandate.customer_id,
        method: mandate.method,
        status: event === 'revoked' ? 'invalid' : mandate.status,
        ...extra,
      },
    },
    now,
  );
}

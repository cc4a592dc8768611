import type { Knex } from 'knex';
import type { RefundRow } from './repository';

/**
 * Runs in the transaction that records a refund as `refunded` (the money went back), once per refund: what it
 * writes commits with the refund or not at all. It must only write to the database.
 */
export type RefundSettledHandler = (trx: Knex.Transaction, refund: RefundRow) => Promise<void>;

/**
 * What reacts when a refund went through, as SettlementHooks is for payments: the invoices module corrects the
 * payment's invoice with a credit note. Refunds name none of them; features register at start.
 */
export class RefundSettlementHooks {
  private readonly handlers: RefundSettledHandler[] = [];

  on(handle: RefundSettledHandler): void {
    this.handlers.push(handle);
  }

  async run(trx: Knex.Transaction, refund: RefundRow): Promise<void> {
    for (const handle of this.handlers) await handle(trx, refund);
  }
}

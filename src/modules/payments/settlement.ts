import type { Knex } from 'knex';
import type { PaymentRow } from './repository';
import type { PaymentRowStatus } from './transitions';
import type { PaymentPurpose } from './purposes';

/** A payment reached a settled status (paid, failed, expired, canceled, rejected, refunded, charged back). */
export interface PaymentSettlement {
  /** The payment as it is after the change. */
  payment: PaymentRow;
  from: PaymentRowStatus;
  to: PaymentRowStatus;
}

/**
 * Runs inside the transaction that records the status change, so its writes commit with the change
 * or not at all, and it runs exactly once per change (a duplicate webhook or a lost race changes
 * nothing and calls nothing). It must only write to the database: calls to the outside world are
 * queued (an outbox row) and made after the commit.
 */
export type SettlementHandler = (trx: Knex.Transaction, settlement: PaymentSettlement) => Promise<void>;

/**
 * Runs after the transaction that recorded the status change committed, in its own transactions:
 * work that may fail without undoing the change (numbering an owed invoice). A failure is the
 * handler's to keep for a job to retry; thrown, it is logged and the change stays recorded.
 */
export type CommittedHandler = (settlement: PaymentSettlement) => Promise<void>;

/**
 * The one place that reacts when a payment settles. Features (links, billing, follow-ups, the store)
 * register for the purposes of the payments they make, at start.
 */
export class SettlementHooks {
  private readonly handlers: Array<{ purposes: ReadonlySet<PaymentPurpose> | 'all'; handle: SettlementHandler }> = [];
  private readonly committedHandlers: Array<{ purposes: ReadonlySet<PaymentPurpose> | 'all'; handle: CommittedHandler }> = [];

  /** Calls `handle` for every settlement of a payment made for one of `purposes` ('all': every payment). */
  on(purposes: readonly PaymentPurpose[] | 'all', handle: SettlementHandler): void {
    this.handlers.push({ purposes: purposes === 'all' ? 'all' : new Set(purposes), handle });
  }

  async run(trx: Knex.Transaction, settlement: PaymentSettlement): Promise<void> {
    for (const { purposes, handle } of this.handlers) {
      if (purposes === 'all' || purposes.has(settlement.payment.purpose)) await handle(trx, settlement);
    }
  }

  /** Calls `handle` after the commit of every settlement of a payment made for one of `purposes`. */
  onCommitted(purposes: readonly PaymentPurpose[] | 'all', handle: CommittedHandler): void {
    this.committedHandlers.push({ purposes: purposes === 'all' ? 'all' : new Set(purposes), handle });
  }

  /** After the commit: each handler in turn; one that throws is reported and the next still runs. */
  async runCommitted(settlement: PaymentSettlement, onError: (error: unknown) => void): Promise<void> {
    for (const { purposes, handle } of this.committedHandlers) {
      if (purposes !== 'all' && !purposes.has(settlement.payment.purpose)) continue;
      try {
        await handle(settlement);
      } catch (error) {
        onError(error);
      }
    }
  }
}

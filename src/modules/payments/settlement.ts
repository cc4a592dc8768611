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
 * When a settlement handler runs, phase by phase in this order, whatever order the features registered
 * in (no line of bootstrap.ts decides it):
 *  - fulfilment: what the payment was made for records the outcome: a link is fulfilled (links), a
 *    charge paid or failed (billing), a store checkout's order paid (the store). One handler per
 *    purpose, and it runs first: it takes the row its payment was for (a link's lock, first of all).
 *  - follow-ups: follow-ups open and close on what was recorded: a failed charge or a chargeback opens
 *    one, a paid retry or link solves one, a link or order paid twice opens one.
 *  - store: the store's renewal orders follow a subscription's charge and the follow-up of one.
 *  - invoices: invoices are owed and credited last, when what they describe exists (a link's or an
 * order's subscription has invoiced its first charge by then).
 * Within a phase, handlers run in the order they were registered; the handlers of one phase do not
 * depend on each other (they listen to different purposes or statuses, or one feature registers them
 * together, in its order).
 */
export const SETTLEMENT_PHASES = ['fulfilment', 'follow-ups', 'store', 'invoices'] as const;
export type SettlementPhase = (typeof SETTLEMENT_PHASES)[number];

type Registered<Handler> = { purposes: ReadonlySet<PaymentPurpose> | 'all'; handle: Handler };

const applies = (purposes: ReadonlySet<PaymentPurpose> | 'all', settlement: PaymentSettlement) =>
  purposes === 'all' || purposes.has(settlement.payment.purpose);

/**
 * The one place that reacts when a payment settles. Features (links, billing, follow-ups, the store,
 * invoices) register for the purposes of the payments they care about, at start, each in its phase.
 */
export class SettlementHooks {
  private readonly handlers = new Map<SettlementPhase, Array<Registered<SettlementHandler>>>(SETTLEMENT_PHASES.map((phase) => [phase, []]));
  private readonly committedHandlers: Array<Registered<CommittedHandler>> = [];

  /** Calls `handle` in `phase` for every settlement of a payment made for one of `purposes` ('all': every payment). */
  on(phase: SettlementPhase, purposes: readonly PaymentPurpose[] | 'all', handle: SettlementHandler): void {
    this.handlers.get(phase)?.push({ purposes: purposes === 'all' ? 'all' : new Set(purposes), handle });
  }

  /** Phase by phase (SETTLEMENT_PHASES), each phase's handlers in the order they were registered. */
  async run(trx: Knex.Transaction, settlement: PaymentSettlement): Promise<void> {
    for (const phase of SETTLEMENT_PHASES) {
      for (const { purposes, handle } of this.handlers.get(phase) ?? []) {
        if (applies(purposes, settlement)) await handle(trx, settlement);
      }
    }
  }

  /**
   * Calls `handle` after the commit of every settlement of a payment made for one of `purposes`. These
   * have no phases: each runs in its own transactions and a failure of one never stops the next, so
   * none may count on another having run.
   */
  onCommitted(purposes: readonly PaymentPurpose[] | 'all', handle: CommittedHandler): void {
    this.committedHandlers.push({ purposes: purposes === 'all' ? 'all' : new Set(purposes), handle });
  }

  /** After the commit: each handler in turn; one that throws is reported and the next still runs. */
  async runCommitted(settlement: PaymentSettlement, onError: (error: unknown) => void): Promise<void> {
    for (const { purposes, handle } of this.committedHandlers) {
      if (!applies(purposes, settlement)) continue;
      try {
        await handle(settlement);
      } catch (error) {
        onError(error);
      }
    }
  }
}

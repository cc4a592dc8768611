import type { ProviderPayment } from '../../providers/types';
import type { PaymentRow } from './repository';

/** A payment of ours read from its provider and applied: ours as it now is, and what the provider said. */
export interface FetchedPayment {
  payment: PaymentRow;
  remote: ProviderPayment;
}

export type FetchedHandler = (fetched: FetchedPayment) => Promise<void>;

/**
 * What reacts when one of our payments was fetched from its provider (a webhook call, reconciliation), after its
 * status was applied: the provider's call about a payment may be about something hanging from it (the provider calls the
 * payment's webhook when one of its refunds changes). Features register at start; a handler that throws fails the
 * fetch, so the call is tried again.
 */
export class PaymentFetchHooks {
  private readonly handlers: FetchedHandler[] = [];

  on(handle: FetchedHandler): void {
    this.handlers.push(handle);
  }

  async run(fetched: FetchedPayment): Promise<void> {
    for (const handle of this.handlers) await handle(fetched);
  }
}

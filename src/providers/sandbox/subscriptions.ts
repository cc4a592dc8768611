import type { ProviderPayment, ProviderSubscription } from '../types';

interface Held {
  subscription: ProviderSubscription;
  payments: ProviderPayment[];
}

/**
 * Subscriptions the sandbox "bills itself", as Mollie's Subscriptions API does: the sandbox never makes
 * them (nothing of ours creates provider-side subscriptions), so it answers none unless a test or a
 * demonstration put some in. Kept in memory, per account; no table of their own.
 */
export class SandboxSubscriptions {
  private readonly byAccount = new Map<string, Map<string, Held>>();

  /** Puts a subscription (and the payments made for it, newest first) at the sandbox of an account. */
  put(accountId: string, subscription: ProviderSubscription, payments: ProviderPayment[] = []): void {
    const held = this.byAccount.get(accountId) ?? new Map<string, Held>();
    held.set(subscription.id, { subscription: { ...subscription }, payments: [...payments] });
    this.byAccount.set(accountId, held);
  }

  clear(): void {
    this.byAccount.clear();
  }

  list(accountId: string, customerId: string): ProviderSubscription[] {
    return [...(this.byAccount.get(accountId)?.values() ?? [])]
      .filter((held) => held.subscription.customerId === customerId)
      .map((held) => ({ ...held.subscription }));
  }

  find(accountId: string, customerId: string, subscriptionId: string): Held | null {
    const held = this.byAccount.get(accountId)?.get(subscriptionId);
    return held && held.subscription.customerId === customerId ? held : null;
  }
}

/** The one store of the process (a provider object is made per request; the subscriptions outlive it). */
export const sandboxSubscriptions = new SandboxSubscriptions();

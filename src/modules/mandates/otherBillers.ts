import type { AppContext } from '../../context';
import type { ProviderSubscription } from '../../providers/types';
import { customersRepository } from '../customers/repository';
import type { MandateRow } from './repository';

/** The provider's own subscriptions that charge now or may again (a suspended one resumes once fixed there). */
const BILLING: ReadonlySet<ProviderSubscription['status']> = new Set(['active', 'pending', 'suspended']);

/**
 * Whether the mandate is ours alone: a first payment of ours made it, so no biller but us was ever
 * given it. Any other (imported, found at the provider, made through `POST …/mandates`, or older and
 * unplaced) may be charged by someone else too.
 */
export const madeByOurFirstPayment = (mandate: Pick<MandateRow, 'origin'>): boolean => mandate.origin === 'first_payment';

/**
 * The provider's subscriptions of the mandate's customer that charge it (its Subscriptions API,
 * run by another integration or the merchant's dashboard): those naming it, and those naming none — the
 * provider charges them on any valid mandate of the customer, so this one may be theirs. Answers their
 * ids; none for a customer the provider does not know.
 */
export async function otherBillersOf(ctx: AppContext, mandate: Pick<MandateRow, 'id' | 'account_id' | 'customer_id'>): Promise<string[]> {
  const customer = await customersRepository.find(ctx.db, mandate.account_id, mandate.customer_id);
  if (!customer?.provider_customer_id) return [];
  const provider = await ctx.providers.forAccount({ id: mandate.account_id });
  const subscriptions = await provider.listSubscriptions(customer.provider_customer_id);
  return subscriptions
    .filter(
      (subscription) => BILLING.has(subscription.status) && (subscription.mandateId === null || subscription.mandateId === mandate.id),
    )
    .map((subscription) => subscription.id);
}

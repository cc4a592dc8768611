import type { Account, AppContext } from '../../context';
import type { PaymentProvider } from '../../providers';
import type { ProviderSubscription } from '../../providers/types';
import { calendarDateIn, formatNullableDate } from '../../time';
import { customersRepository } from '../customers/repository';
import type { SubscriptionRow } from '../subscriptions/repository';
import type { ScheduledCharge } from '../subscriptions/schedule';
import { moveOursPast } from './movePast';
import type { HandOver, ImportCandidate } from './sources';

/**
 * Whether charge `charge` of ours is one Mollie charged (or charges on its daily run today, or on a
 * day it is behind on): counted by Mollie's own number when it has a length, and by date, for it
 * charges every period on or before today from its next payment date on.
 */
function chargedAtMollie(charge: ScheduledCharge, mollie: ProviderSubscription, today: string): boolean {
  const madeAtMollie = mollie.times !== null ? mollie.times - (mollie.timesRemaining ?? 0) : null;
  if (madeAtMollie !== null && charge.number <= madeAtMollie) return true;
  if (mollie.status !== 'active' || mollie.nextPaymentDate === null) return false;
  return charge.date < mollie.nextPaymentDate || (mollie.nextPaymentDate <= today && charge.date <= today);
}

const firstOf = (ours: SubscriptionRow) => formatNullableDate(ours.next_payment_at) ?? 'none: its charges were all made at Mollie';

/**
 * Stops Mollie's subscription once ours holds the next charge, in the order that never charges a period
 * twice nor skips one. Mollie's subscription is read again (the run may come days after ours was made).
 * Canceled or completed there: nothing more is billed there. Due today or earlier there: Mollie makes
 * that charge on its daily run, ours starts after it, and the hand-over waits until Mollie has made it
 * (its next payment date moved on) before canceling it; a later run finishes. Any period Mollie charged
 * since ours was made is taken out of ours first. A lost answer to the cancel throws: the row fails on
 * `handover`, ours stays pending, and the next run finds Mollie's canceled (the cancel is safe to repeat).
 */
export async function handOverMollieSubscription(
  ctx: AppContext,
  account: Account,
  provider: PaymentProvider,
  candidate: ImportCandidate,
  subscription: SubscriptionRow,
): Promise<HandOver> {
  const customer = await customersRepository.find(ctx.db, account.id, subscription.customer_id);
  const mollieCustomerId = customer?.provider_customer_id;
  if (!mollieCustomerId) throw new Error('Our customer is not linked to a Mollie customer.');
  const mollie = (await provider.listSubscriptions(mollieCustomerId)).find((listed) => listed.id === candidate.sourceId);
  if (!mollie) return { done: true, note: 'Mollie no longer lists the subscription: it bills it no more' };
  const today = calendarDateIn(ctx.clock.now(), ctx.config.APP_TIMEZONE);
  const ours = await moveOursPast(ctx, subscription, (charge) => chargedAtMollie(charge, mollie, today));
  const moved = ours.next_charge_number !== subscription.next_charge_number;
  const from = moved ? `Mollie charged up to it, so ours now starts ${firstOf(ours)}` : `ours starts ${firstOf(ours)}`;
  if (mollie.status === 'canceled' || mollie.status === 'completed') return { done: true, note: `${mollie.status} at Mollie; ${from}` };
  if (mollie.nextPaymentDate !== null && mollie.nextPaymentDate <= today) {
    return {
      done: false,
      note:
        `Mollie charges the period of ${mollie.nextPaymentDate} itself (due today or earlier), ${from}; ` +
        'run the import again once Mollie has made that charge, to cancel it there',
    };
  }
  await provider.cancelSubscription(mollieCustomerId, mollie.id);
  return { done: true, note: `canceled at Mollie; ${from}` };
}

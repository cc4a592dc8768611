import type { PaymentLinkRow } from './repository';
import type { LinkRule } from './rules';
import { dateAfterTrial, parseTrialInterval, type TrialInterval } from './trial';

/** The link's trial: the time its first payment buys before the regular charges begin; null without one. */
export function trialOf(link: Pick<PaymentLinkRow, 'trial_interval'>): TrialInterval | null {
  return link.trial_interval === null ? null : parseTrialInterval(link.trial_interval);
}

/**
 * The date from which a subscription link's regular charges run after its first payment, for a link
 * paid on `paidDate` (Y-m-d in APP_TIMEZONE): after the trial, or — without one — a full interval of
 * the first rule later, since the first payment paid for the first period (it is the subscription's
 * charge 1) and nobody is charged twice for one period.
 */
export function regularChargesStart(link: Pick<PaymentLinkRow, 'trial_interval'>, firstRule: Pick<LinkRule, 'interval' | 'interval_amount'>, paidDate: string): string {
  return dateAfterTrial(paidDate, trialOf(link) ?? { count: firstRule.interval_amount, unit: firstRule.interval });
}

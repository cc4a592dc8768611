import type { PaymentLinkRow } from './repository';
import type { LinkRule } from './rules';
import { dateAfterTrial, parseTrialInterval } from './trial';

/**
 * The date a subscription link's subscription starts, i.e. from when its regular charges run, for a
 * link paid on `paidDate` (Y-m-d in APP_TIMEZONE). The first payment on the page paid for now: with a
 * trial the regular charges begin after it, without one a full interval of the first rule later —
 * never on the day of the first payment, so nobody is charged twice for one period.
 */
export function regularChargesStart(link: Pick<PaymentLinkRow, 'trial_interval'>, firstRule: Pick<LinkRule, 'interval' | 'interval_amount'>, paidDate: string): string {
  const trial = link.trial_interval === null ? null : parseTrialInterval(link.trial_interval);
  return dateAfterTrial(paidDate, trial ?? { count: firstRule.interval_amount, unit: firstRule.interval });
}

import type { PaymentLinkRow } from './repository';
import type { LinkRule } from './rules';
import { effectiveRuleDay, scheduledCharge, startOfPaidFirstPeriod, type SchedulePlan } from '../subscriptions/schedule';
import { dateAfterTrial, parseTrialInterval, type TrialInterval } from './trial';

/** The link's trial: the time its first payment buys before the regular charges begin; null without one. */
export function trialOf(link: Pick<PaymentLinkRow, 'trial_interval'>): TrialInterval | null {
  return link.trial_interval === null ? null : parseTrialInterval(link.trial_interval);
}

/**
 * The date of the first charge after the link's payment, as the subscription its payment starts
 * will have it, for a link paid on `paidDate` (Y-m-d in APP_TIMEZONE); null when there is none.
 * With a trial the charges begin after it (charge 1). Without one the payment paid the first period
 * and is charge 1 itself (see subscriptions/paidFirstPeriod.ts): the next one is charge 2.
 */
export function firstRegularChargeDate(
  link: Pick<PaymentLinkRow, 'trial_interval'>,
  rules: readonly LinkRule[],
  paidDate: string,
): string | null {
  const [first] = rules;
  if (!first) return null;
  const trial = trialOf(link);
  const startDate = trial
    ? dateAfterTrial(paidDate, trial)
    : startOfPaidFirstPeriod(
        { interval: first.interval, interval_amount: first.interval_amount, day: effectiveRuleDay(first.interval, first.day, paidDate) },
        paidDate,
      );
  const plan: SchedulePlan = {
    startDate,
    rules: rules.map((rule) => ({
      interval: rule.interval,
      interval_amount: rule.interval_amount,
      day: effectiveRuleDay(rule.interval, rule.day, startDate),
      amount: rule.amount,
      times: rule.times ?? null,
    })),
  };
  return scheduledCharge(plan, trial ? 1 : 2)?.date ?? null;
}

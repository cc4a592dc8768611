import type { AppContext } from '../../context';
import type { Account } from '../accounts/account';
import type { PaymentProvider } from '../../providers';
import type { PaymentStatus, ProviderCustomerSummary, ProviderMandate, ProviderSubscription } from '../../providers/types';
import { calendarDateIn } from '../../time';
import { chargeDateAfter, effectiveRuleDay } from '../subscriptions/schedule';
import { handOverMollieSubscription } from './mollieHandOver';
import { invoicedAtRate, type ImportInvoicing } from './importVat';
import type { CandidateCustomer, ImportCandidate, ImportSource } from './sources';

/** A payment Mollie made for the subscription that may still be paid or fail: the period is not settled. */
const UNDER_WAY: ReadonlySet<PaymentStatus> = new Set(['open', 'pending', 'authorized']);

/** Why a subscription in another status than `active` is not taken over. */
const NOT_ACTIVE: Record<Exclude<ProviderSubscription['status'], 'active'>, string> = {
  pending: 'Pending at Mollie: it has not begun (its mandate is not valid yet); import it once it is active.',
  suspended: 'Suspended at Mollie after failed payments: it charges nothing until it is fixed there; import it once it is active.',
  canceled: 'Canceled at Mollie: nothing is left to take over.',
  completed: 'Completed at Mollie: all its charges were made.',
};

/** Mollie keeps one name; ours has a first and a last name (the first word, and the rest). */
function customerOf(customer: ProviderCustomerSummary): CandidateCustomer {
  const [first = '', ...rest] = (customer.name ?? '').trim().split(/\s+/);
  return {
    firstName: first || 'Mollie',
    lastName: rest.join(' ') || 'customer',
    email: customer.email ?? '',
    locale: null,
    providerCustomerId: customer.id,
  };
}

/** The day our rule charges on: Mollie keeps a monthly subscription on its start date's day (clamped to the month's end). */
function ruleDayOf(subscription: ProviderSubscription): number | null {
  if (subscription.interval?.unit !== 'month') return null;
  return Number(subscription.startDate.slice(8, 10));
}

/**
 * The charge ours makes first, and how many Mollie made (or makes) before it. Mollie's next charge is
 * ours, unless it falls today or earlier: Mollie charges it (and any period it is behind on) on its own
 * daily run, before ours could, so ours starts with the first period after today.
 */
export function firstPeriodOfOurs(
  subscription: ProviderSubscription & { interval: NonNullable<ProviderSubscription['interval']>; nextPaymentDate: string },
  timesDone: number,
  today: string,
): { nextDate: string; timesDone: number; chargedByMollie: string[] } {
  const { unit, count } = subscription.interval;
  const rule = {
    interval: unit,
    interval_amount: count,
    day: effectiveRuleDay(unit, ruleDayOf(subscription), subscription.nextPaymentDate),
  };
  const chargedByMollie: string[] = [];
  let date = subscription.nextPaymentDate;
  while (date <= today) {
    chargedByMollie.push(date);
    date = chargeDateAfter(rule, date);
  }
  return { nextDate: date, timesDone: timesDone + chargedByMollie.length, chargedByMollie };
}

const skipped = (sourceId: string, customer: CandidateCustomer, skipReason: string): ImportCandidate => ({
  sourceId,
  customer,
  mandate: null,
  subscription: null,
  skipReason,
});

/** One Mollie subscription as a candidate: taken over, skipped with the reason, or invalid with its field. */
async function candidateOf(
  provider: PaymentProvider,
  customer: ProviderCustomerSummary,
  subscription: ProviderSubscription,
  validMandate: () => Promise<ProviderMandate | undefined>,
  today: string,
  vatRate: string | null,
): Promise<ImportCandidate> {
  const sourceId = subscription.id;
  const wantedCustomer = customerOf(customer);
  if (subscription.status !== 'active') return skipped(sourceId, wantedCustomer, NOT_ACTIVE[subscription.status]);
  if (subscription.currency !== 'EUR') {
    return skipped(sourceId, wantedCustomer, `Billed in ${subscription.currency} at Mollie: only EUR subscriptions can be taken over.`);
  }
  const invalid = (field: string, message: string): ImportCandidate => ({
    sourceId,
    customer: wantedCustomer,
    mandate: null,
    subscription: null,
    invalid: { field, message },
  });
  const { interval, nextPaymentDate } = subscription;
  if (!interval)
    return invalid('interval', subscription.intervalProblem ?? `Mollie's interval "${subscription.intervalText}" cannot be read.`);
  if (!nextPaymentDate) return invalid('next_date', 'Mollie names no next payment date for this active subscription.');
  const payments = await provider.listSubscriptionPayments(customer.id, sourceId);
  const latest = payments[0];
  if (latest && UNDER_WAY.has(latest.status)) {
    return skipped(
      sourceId,
      wantedCustomer,
      `Its latest payment at Mollie (${latest.id}) is still ${latest.status}: left until it settles; run the import again then.`,
    );
  }
  const mandateId = subscription.mandateId ?? (await validMandate())?.id;
  if (!mandateId) return skipped(sourceId, wantedCustomer, 'The customer has no valid mandate at Mollie for ours to charge.');
  // Mollie counts down `timesRemaining`; a subscription without end numbers on from the payments it made.
  const madeAtMollie = subscription.times !== null ? subscription.times - (subscription.timesRemaining ?? 0) : payments.length;
  const first = firstPeriodOfOurs({ ...subscription, interval, nextPaymentDate }, madeAtMollie, today);
  if (subscription.times !== null && first.timesDone >= subscription.times) {
    return skipped(
      sourceId,
      wantedCustomer,
      `Mollie makes its last charge (${subscription.times} of ${subscription.times}) on ${nextPaymentDate} itself: ` +
        'nothing is left to take over.',
    );
  }
  const charged = first.chargedByMollie.join(', ');
  const description = subscription.description || `Subscription ${sourceId}`;
  // Mollie's subscription says no VAT: the merchant names the rate its amount includes for the run, or it is not invoiced.
  const invoicing: ImportInvoicing = vatRate
    ? invoicedAtRate(description, subscription.amount, vatRate)
    : { refusal: 'Imported from Mollie without a VAT rate (the import option vat_rate): the VAT it includes is not known' };
  return {
    sourceId,
    customer: wantedCustomer,
    ...(charged
      ? { dryRunNote: `Mollie charges ${charged} itself first (due today or earlier); a run after that charge cancels Mollie's` }
      : {}),
    mandate: { kind: 'existing', providerMandateId: mandateId },
    subscription: {
      amount: subscription.amount,
      interval: interval.unit,
      intervalAmount: interval.count,
      day: ruleDayOf(subscription),
      times: subscription.times,
      timesDone: first.timesDone,
      nextDate: first.nextDate,
      description,
      invoicing,
    },
  };
}

/**
 * The subscriptions Mollie bills itself (its Subscriptions API) for the account's customers there:
 * every customer, page by page, and each one's subscriptions. Only active ones in EUR are taken over,
 * on the mandate Mollie charges (or, when it names none, the customer's valid one). Reading them calls
 * only Mollie's read endpoints; the hand-over (mollieHandOver.ts) cancels Mollie's once ours holds the
 * next charge.
 */
export function mollieSubscriptionsSource(options: { vatRate?: string | null } = {}): ImportSource {
  return {
    name: 'mollie-subscriptions',
    async *candidates(ctx: AppContext, account: Account) {
      const provider = await ctx.providers.forAccount(account);
      const today = calendarDateIn(ctx.clock.now(), ctx.config.APP_TIMEZONE);
      let cursor: string | undefined;
      do {
        const page = await provider.listCustomers(cursor);
        for (const customer of page.customers) {
          let mandates: Promise<ProviderMandate[]> | undefined;
          const validMandate = async () => {
            mandates ??= provider.listMandates(customer.id);
            return (await mandates).find((mandate) => mandate.status === 'valid');
          };
          for (const subscription of await provider.listSubscriptions(customer.id)) {
            yield await candidateOf(provider, customer, subscription, validMandate, today, options.vatRate ?? null);
          }
        }
        cursor = page.next ?? undefined;
      } while (cursor);
    },
    handOver: handOverMollieSubscription,
  };
}

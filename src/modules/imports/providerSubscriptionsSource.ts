import type { AppContext } from '../../context';
import type { Account } from '../accounts/account';
import { PROVIDER_SUBSCRIPTIONS_IMPORT, type PaymentProvider } from '../../providers';
import type { PaymentStatus, ProviderCustomerSummary, ProviderMandate, ProviderSubscription } from '../../providers/types';
import { calendarDateIn } from '../../time';
import { chargeDateAfter, effectiveRuleDay } from '../subscriptions/schedule';
import { handOverProviderSubscription } from './providerHandOver';
import { invoicedAtRate, type ImportInvoicing } from './importVat';
import type { CandidateCustomer, ImportCandidate, ImportSource } from './sources';

/** The provider that bills these subscriptions, as the reports name it. */
const BILLER = PROVIDER_SUBSCRIPTIONS_IMPORT.billerName;

/** A payment the provider made for the subscription that may still be paid or fail: the period is not settled. */
const UNDER_WAY: ReadonlySet<PaymentStatus> = new Set(['open', 'pending', 'authorized']);

/** Why a subscription in another status than `active` is not taken over. */
const NOT_ACTIVE: Record<Exclude<ProviderSubscription['status'], 'active'>, string> = {
  pending: `Pending at ${BILLER}: it has not begun (its mandate is not valid yet); import it once it is active.`,
  suspended: `Suspended at ${BILLER} after failed payments: it charges nothing until it is fixed there; import it once it is active.`,
  canceled: `Canceled at ${BILLER}: nothing is left to take over.`,
  completed: `Completed at ${BILLER}: all its charges were made.`,
};

/** The provider keeps one name; ours has a first and a last name (the first word, and the rest). */
function customerOf(customer: ProviderCustomerSummary): CandidateCustomer {
  const [first = '', ...rest] = (customer.name ?? '').trim().split(/\s+/);
  return {
    firstName: first || BILLER,
    lastName: rest.join(' ') || 'customer',
    email: customer.email ?? '',
    locale: null,
    providerCustomerId: customer.id,
  };
}

/** The day our rule charges on: the provider keeps a monthly subscription on its start date's day (clamped to the month's end). */
function ruleDayOf(subscription: ProviderSubscription): number | null {
  if (subscription.interval?.unit !== 'month') return null;
  return Number(subscription.startDate.slice(8, 10));
}

/**
 * The charge ours makes first, and how many the provider made (or makes) before it. Its next charge is
 * ours, unless it falls today or earlier: the provider charges it (and any period it is behind on) on its
 * own daily run, before ours could, so ours starts with the first period after today.
 */
export function firstPeriodOfOurs(
  subscription: ProviderSubscription & { interval: NonNullable<ProviderSubscription['interval']>; nextPaymentDate: string },
  timesDone: number,
  today: string,
): { nextDate: string; timesDone: number; chargedByProvider: string[] } {
  const { unit, count } = subscription.interval;
  const rule = {
    interval: unit,
    interval_amount: count,
    day: effectiveRuleDay(unit, ruleDayOf(subscription), subscription.nextPaymentDate),
  };
  const chargedByProvider: string[] = [];
  let date = subscription.nextPaymentDate;
  while (date <= today) {
    chargedByProvider.push(date);
    date = chargeDateAfter(rule, date);
  }
  return { nextDate: date, timesDone: timesDone + chargedByProvider.length, chargedByProvider };
}

const skipped = (sourceId: string, customer: CandidateCustomer, skipReason: string): ImportCandidate => ({
  sourceId,
  customer,
  mandate: null,
  subscription: null,
  skipReason,
});

/** One of the provider's subscriptions as a candidate: taken over, skipped with the reason, or invalid with its field. */
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
    return skipped(sourceId, wantedCustomer, `Billed in ${subscription.currency} at ${BILLER}: only EUR subscriptions can be taken over.`);
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
    return invalid('interval', subscription.intervalProblem ?? `${BILLER}'s interval "${subscription.intervalText}" cannot be read.`);
  if (!nextPaymentDate) return invalid('next_date', `${BILLER} names no next payment date for this active subscription.`);
  const payments = await provider.listSubscriptionPayments(customer.id, sourceId);
  const latest = payments[0];
  if (latest && UNDER_WAY.has(latest.status)) {
    return skipped(
      sourceId,
      wantedCustomer,
      `Its latest payment at ${BILLER} (${latest.id}) is still ${latest.status}: left until it settles; run the import again then.`,
    );
  }
  const mandateId = subscription.mandateId ?? (await validMandate())?.id;
  if (!mandateId) return skipped(sourceId, wantedCustomer, `The customer has no valid mandate at ${BILLER} for ours to charge.`);
  // The provider counts down `timesRemaining`; a subscription without end numbers on from the payments it made.
  const madeThere = subscription.times !== null ? subscription.times - (subscription.timesRemaining ?? 0) : payments.length;
  const first = firstPeriodOfOurs({ ...subscription, interval, nextPaymentDate }, madeThere, today);
  if (subscription.times !== null && first.timesDone >= subscription.times) {
    return skipped(
      sourceId,
      wantedCustomer,
      `${BILLER} makes its last charge (${subscription.times} of ${subscription.times}) on ${nextPaymentDate} itself: ` +
        'nothing is left to take over.',
    );
  }
  const charged = first.chargedByProvider.join(', ');
  const description = subscription.description || `Subscription ${sourceId}`;
  // The provider's subscription says no VAT: the merchant names the rate its amount includes for the run, or it is not invoiced.
  const invoicing: ImportInvoicing = vatRate
    ? invoicedAtRate(description, subscription.amount, vatRate)
    : { refusal: `Imported from ${BILLER} without a VAT rate (the import option vat_rate): the VAT it includes is not known` };
  return {
    sourceId,
    customer: wantedCustomer,
    ...(charged
      ? { dryRunNote: `${BILLER} charges ${charged} itself first (due today or earlier); a run after that charge cancels ${BILLER}'s` }
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
 * The subscriptions the provider bills itself (its Subscriptions API, which its adapter offers as
 * PROVIDER_SUBSCRIPTIONS_IMPORT) for the account's customers there: every customer, page by page, and
 * each one's subscriptions. Only active ones in EUR are taken over, on the mandate the provider charges
 * (or, when it names none, the customer's valid one). Reading them calls only the provider's read
 * endpoints; the hand-over (providerHandOver.ts) cancels the provider's once ours holds the next charge.
 */
export function providerSubscriptionsSource(options: { vatRate?: string | null } = {}): ImportSource {
  return {
    name: PROVIDER_SUBSCRIPTIONS_IMPORT.sourceName,
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
    handOver: handOverProviderSubscription,
  };
}

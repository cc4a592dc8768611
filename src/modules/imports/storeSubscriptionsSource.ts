import type { AppContext } from '../../context';
import type { Account } from '../accounts/account';
import type { StoreClient } from '../../integrations/platform';
import type { StoreOrder, StoreSubscription, StoreSubscriptionOrder } from '../../integrations/records';
import { STORE_SUBSCRIPTIONS_IMPORT } from '../../integrations';
import { calendarDateIn, fromDbDateTime } from '../../time';
import { chargeDateAfter, effectiveRuleDay, type ScheduledCharge } from '../subscriptions/schedule';
import { requireConnectedStore, storeClient } from '../store/storeClient';
import type { SubscriptionRow } from '../subscriptions/repository';
import type { CandidateSubscription, HandOver, ImportCandidate, ImportSource } from './sources';
import { moveOursPast } from './movePast';
import { linkToStoreSubscription } from './storeSubscriptionLinks';
import { storeSubscriptionInvoicing } from './storeSubscriptionVat';
import { errorMessage } from '../../errors';

const { ourGateway: OUR_GATEWAY, fromProvider: FROM_PROVIDER } = STORE_SUBSCRIPTIONS_IMPORT;

/** What a skipped subscription's customer can be offered instead (docs/moving-over.md). */
const LINK_HINT = 'The merchant can send this customer a subscription link instead.';
/** The store's orders that paid a period: paid, or paid and completed. */
const PAID = new Set<StoreOrder['status']>(['paid', 'completed']);

const skipped = (sourceId: string, reason: string, hint = true): ImportCandidate => ({
  sourceId,
  customer: null,
  mandate: null,
  subscription: null,
  skipReason: hint ? `${reason} ${LINK_HINT}` : reason,
});

const invalid = (sourceId: string, field: string, message: string): ImportCandidate => ({
  sourceId,
  customer: null,
  mandate: null,
  subscription: null,
  invalid: { field, message },
});

/** Why the service cannot take the subscription over as it is, or null when it can (the mandate aside). */
function skipReasonOf(theirs: StoreSubscription): { reason: string; hint: boolean } | null {
  if (theirs.paymentMethod === OUR_GATEWAY) return { reason: 'Billed through our gateway already.', hint: false };
  if (theirs.status !== 'active')
    return { reason: `The subscription is ${theirs.shopStatus}: only active ones are taken over.`, hint: true };
  if (theirs.provider !== FROM_PROVIDER.name) {
    return { reason: `Paid through ${theirs.paymentMethod ?? 'no gateway'}, not a ${FROM_PROVIDER.displayName} gateway.`, hint: true };
  }
  if (theirs.requiresManualRenewal)
    return { reason: 'The customer renews it by hand (manual renewals): there is no mandate to charge.', hint: true };
  if (theirs.currency !== 'EUR') return { reason: `Billed in ${theirs.currency}; the service bills in EUR.`, hint: true };
  if (!theirs.nextPaymentAt) return { reason: 'The store has no next payment for it.', hint: true };
  return null;
}

/**
 * The schedule as the store runs it: the same amount (tax included), interval and next date (in
 * APP_TIMEZONE); `timesDone` the parent and renewal orders paid; with an end date, `times` adds the
 * payments due before it (the store's extension makes none on the end date itself).
 */
function scheduleOf(theirs: StoreSubscription, orders: StoreSubscriptionOrder[], timeZone: string): CandidateSubscription {
  const dateOf = (stored: string) => calendarDateIn(fromDbDateTime(stored), timeZone);
  const nextDate = dateOf(theirs.nextPaymentAt as string);
  const timesDone = orders.filter((one) => (one.relation === 'parent' || one.relation === 'renewal') && PAID.has(one.order.status)).length;
  let times: number | null = null;
  if (theirs.endAt) {
    const end = dateOf(theirs.endAt);
    const rule = {
      interval: theirs.interval,
      interval_amount: theirs.intervalCount,
      day: effectiveRuleDay(theirs.interval, null, nextDate),
    };
    let remaining = 0;
    for (let date = nextDate; date < end && remaining < 10_000; date = chargeDateAfter(rule, date)) remaining += 1;
    times = timesDone + remaining;
  }
  const names = theirs.lines.map((line) => (line.quantity > 1 ? `${line.quantity} × ${line.name}` : line.name)).join(', ');
  return {
    amount: theirs.amountCents,
    interval: theirs.interval,
    intervalAmount: theirs.intervalCount,
    day: null,
    times,
    timesDone,
    nextDate,
    description: `${STORE_SUBSCRIPTIONS_IMPORT.subscriptionLabel} #${theirs.shopSubscriptionId}${names ? `: ${names}` : ''}`.slice(0, 191),
    invoicing: storeSubscriptionInvoicing(theirs),
  };
}

/** A renewal order of the store still being paid (the provider's plugin started it, or the customer pays it). */
const RENEWING = new Set(['pending', 'on-hold']);
/** Ended or ending at the store: the customer cancelled it there, so it is never handed to our gateway. */
const ENDED = new Set<StoreSubscription['status']>(['pending_cancel', 'cancelled', 'expired']);

/**
 * Why the hand-over must wait with the subscription as the store has it now, or null when it can go on:
 * only an active subscription, billed by the provider's gateway (or cleared by a refused switch) or ours.
 */
function waitReasonOf(now: StoreSubscription, handed: boolean): string | null {
  if (ENDED.has(now.status)) {
    const status = `the store's subscription is ${now.shopStatus} since it was listed`;
    return `${status}: not switched to our gateway; ours is held and charges nothing`;
  }
  if (now.status !== 'active') return `the store's subscription is ${now.shopStatus}: ours waits until it is active again`;
  if (!handed && now.paymentMethod !== null && now.paymentMethod !== OUR_GATEWAY && now.provider !== FROM_PROVIDER.name) {
    return `the store's subscription is paid through ${now.paymentMethod} now: not switched; ours is held`;
  }
  return null;
}

/** How far apart two calendar dates are (in milliseconds, either order). */
const daysApart = (a: string, b: string): number => Math.abs(Date.parse(`${a}T00:00:00Z`) - Date.parse(`${b}T00:00:00Z`));

/** The calendar date (APP_TIMEZONE) of a store time. */
const dateOf = (ctx: AppContext, stored: string): string => calendarDateIn(fromDbDateTime(stored), ctx.config.APP_TIMEZONE);

/**
 * Ours moved past every period the store billed as it says now: charges dated before its next payment,
 * and those on or before its last paid renewal order (`lastPaid`: a renewal it made before moving its
 * next date on). The subscription's own `last_payment_date_gmt` is not that: it is the last order
 * made, paid or not, so a failed renewal would move ours past a period nobody billed.
 */
async function movePastStore(
  ctx: AppContext,
  subscription: SubscriptionRow,
  store: StoreSubscription,
  lastPaid: string | null,
): Promise<SubscriptionRow> {
  const next = store.nextPaymentAt ? dateOf(ctx, store.nextPaymentAt) : null;
  const last = lastPaid ? dateOf(ctx, lastPaid) : null;
  if (!next && !last) return subscription;
  // A charge before the store's next date was billed there only when ours' following one is nearer that date:
  // the store's dates drift from ours (its month from a month's last day ends on the next month's last day, and
  // it counts on from when a renewal was paid), so a following charge a few days before it is still to bill.
  const billedBefore = (charge: ScheduledCharge, following: ScheduledCharge | null) =>
    next !== null && charge.date < next && (following === null || daysApart(following.date, next) <= daysApart(charge.date, next));
  return moveOursPast(ctx, subscription, (charge, following) => billedBefore(charge, following) || (last !== null && charge.date <= last));
}

/** When the store's newest paid renewal order was made (GMT), or null when it has none. */
function lastPaidRenewal(orders: StoreSubscriptionOrder[]): string | null {
  const paid = orders.filter((one) => one.relation === 'renewal' && PAID.has(one.order.status) && one.order.createdAt);
  return (
    paid
      .map((one) => one.order.createdAt as string)
      .sort()
      .at(-1) ?? null
  );
}

/** The report's words when ours moved past periods the store billed. */
function billedNote(before: SubscriptionRow, after: SubscriptionRow, store: StoreSubscription, ctx: AppContext): string {
  if (after.next_charge_number === before.next_charge_number) return '';
  const next = store.nextPaymentAt ? dateOf(ctx, store.nextPaymentAt) : after.next_charge_date;
  return `the store billed up to ${next ?? 'its end'}; `;
}

/** What the source read of one subscription, for its hand-over later in the run. */
interface Read {
  theirs: StoreSubscription;
  parent: StoreOrder | null;
}

/**
 * The subscriptions the connected store's subscriptions extension bills (which its platform's adapter
 * offers as STORE_SUBSCRIPTIONS_IMPORT), taken over from the provider's plugin for that store: active,
 * automatic, on the provider's gateway, with the provider's customer and mandate it charges (on the
 * subscription, else on its parent order). Each is keyed by the store's subscription id. Handing one
 * over links ours to it (renewal orders in the store) and switches it to our gateway.
 */
export function storeSubscriptionsSource(): ImportSource {
  const read = new Map<string, Read>();
  let client: StoreClient | undefined;

  async function candidateOf(ctx: AppContext, store: StoreClient, theirs: StoreSubscription): Promise<ImportCandidate> {
    const sourceId = String(theirs.shopSubscriptionId);
    read.set(sourceId, { theirs, parent: null });
    const refusal = skipReasonOf(theirs);
    if (refusal) return skipped(sourceId, refusal.reason, refusal.hint);
    const orders = await store.subscriptionOrders(theirs.shopSubscriptionId);
    const parent = orders.find((one) => one.relation === 'parent') ?? null;
    read.set(sourceId, { theirs, parent: parent?.order ?? null });
    // The provider's plugin may keep the mandate only on the parent order (docs/moving-over.md).
    const providerCustomerId = theirs.providerCustomerId ?? parent?.providerCustomerId ?? null;
    const providerMandateId = theirs.providerMandateId ?? parent?.providerMandateId ?? null;
    if (!providerCustomerId) return skipped(sourceId, `The store keeps no ${FROM_PROVIDER.displayName} customer for it.`);
    if (!providerMandateId) return skipped(sourceId, `The store keeps no ${FROM_PROVIDER.displayName} mandate for it.`);
    if (!theirs.customer.email) {
      return invalid(sourceId, 'email', 'The subscription has no billing e-mail.');
    }
    return {
      sourceId,
      customer: {
        firstName: theirs.customer.firstName ?? '',
        lastName: theirs.customer.lastName ?? theirs.customer.organizationName ?? '',
        email: theirs.customer.email,
        locale: null,
        providerCustomerId,
      },
      mandate: { kind: 'existing', providerMandateId },
      subscription: scheduleOf(theirs, orders, ctx.config.APP_TIMEZONE),
    };
  }

  async function storeOf(ctx: AppContext, account: Account): Promise<StoreClient> {
    const failure = `Could not import from ${STORE_SUBSCRIPTIONS_IMPORT.extensionName}`;
    client ??= storeClient(ctx, await requireConnectedStore(ctx, account.id, failure));
    return client;
  }

  return {
    name: STORE_SUBSCRIPTIONS_IMPORT.sourceName,

    async *candidates(ctx, account) {
      const store = await storeOf(ctx, account);
      for (let page = 1, pages = 1; page <= pages; page += 1) {
        const answer = await store.listSubscriptions(page);
        pages = answer.totalPages;
        for (const rejected of answer.rejected) {
          yield invalid(String(rejected.id), 'subscription', rejected.error);
        }
        for (const theirs of answer.subscriptions) {
          try {
            yield await candidateOf(ctx, store, theirs);
          } catch (error) {
            // A subscription whose orders the store would not answer fails alone; the others go on.
            const message = errorMessage(error);
            yield invalid(String(theirs.shopSubscriptionId), 'orders', message.slice(0, 300));
          }
        }
      }
    },

    /**
     * Reads the store's subscription again (the listing may be minutes old), and only while it is
     * active, billed by the provider's gateway or ours, with no renewal order of the store waiting to be
     * paid: moves ours past every period the store billed meanwhile, links ours to it and switches it
     * to our gateway with ours' id on it; a switch whose answer shows the store renewed it meanwhile
     * keeps ours held for the next run, which reads its orders. Anything else waits, ours held (billing
     * charges none of it): a store subscription cancelled meanwhile is never switched, and the report says so. Refused (the store's
     * gateway lacks `subscription_payment_method_change_admin` for the service) → an error: ours stays
     * held and the next run tries again; so does a lost answer, and that run finds it switched.
     */
    async handOver(ctx, account, _provider, candidate, subscription): Promise<HandOver> {
      const seen = read.get(candidate.sourceId);
      if (!seen) throw new Error('the store did not list this subscription in this run');
      const store = await storeOf(ctx, account);
      const now = await store.fetchSubscription(seen.theirs.shopSubscriptionId);
      const handed = now.paymentMethod === OUR_GATEWAY && !now.requiresManualRenewal && now.serviceSubscriptionId === subscription.id;
      const waiting = waitReasonOf(now, handed);
      if (waiting) return { done: false, note: waiting };
      const orders = await store.subscriptionOrders(now.shopSubscriptionId);
      const renewing = orders.find((one) => one.relation === 'renewal' && RENEWING.has(one.shopStatus ?? ''));
      if (renewing) {
        const order = `the store's renewal order ${renewing.order.shopOrderNumber}`;
        return { done: false, note: `${order} is ${renewing.shopStatus ?? 'open'}: ours waits until it is settled` };
      }
      const parent = orders.find((one) => one.relation === 'parent')?.order ?? null;
      // The store billed periods ours was to bill (a renewal since the listing, a run again after a refused
      // switch): ours moves past them before it is released, so that no period is billed twice.
      const current = await movePastStore(ctx, subscription, now, lastPaidRenewal(orders));
      const note = await linkToStoreSubscription(ctx, store, current, now, parent);
      const linked = note ? `; ${note}` : '';
      if (handed) return { done: true, note: `${billedNote(subscription, current, now, ctx)}on our gateway already${linked}` };
      const switched = await store.switchToOurGateway(now.shopSubscriptionId, subscription.id);
      // The provider's plugin may have renewed it between the read and the switch: its answer says so (its dates moved).
      // A date moved on is not a period paid: for SEPA Direct Debit the provider's plugin makes the subscription active
      // at once, and the extension moves its next date on, while the debit clears (or fails) for days. Ours
      // waits, not moved past anything, and the next run reads the orders (a renewal still being paid waits).
      const billed = billedNote(subscription, current, now, ctx);
      const ordered = switched.lastPaymentAt !== now.lastPaymentAt || switched.nextPaymentAt !== now.nextPaymentAt;
      if (switched.status !== 'active' || ordered) {
        const why = ordered ? 'the store made an order of it during the switch' : `the store's subscription is ${switched.shopStatus} now`;
        return { done: false, note: `${billed}switched to our gateway, but ${why}: ours is held` };
      }
      return { done: true, note: `${billed}switched to our gateway${linked}` };
    },
  };
}
